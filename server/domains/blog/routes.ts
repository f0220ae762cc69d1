/** HTTP for the blog: public reads (ETag, cache), views, editors' CRUD, uploads, publish status. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { currentUser } from '../../core/auth.ts';
import { ARTICLE_BODY_LIMIT } from '../../core/server.ts';
import { multipartPlugin, readImageUpload } from '../../core/uploads.ts';
import { ErrorResponse, MessageResponse, Ok } from '../../contracts/common.ts';
import {
  AdminPostListQuery,
  AdminPostListResponse,
  AdminPostResponse,
  AdminUploadResponse,
  BuildStatusResponse,
  InlineUploadResponse,
  PostDetailResponse,
  PostInput,
  PostListQuery,
  PostListResponse,
} from '../../contracts/blog.ts';
import type { Publisher } from '../site-build/plugin.ts';
import type { BlogService } from './service.ts';
import { answerText } from '../../core/api-messages.ts';
import { jsonBytes, sendJsonBytes } from '../../core/json-bytes.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };
const SlugParams = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 200 }) });
const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

/**
 * Public reads revalidate with an ETag (a 304 costs no serialization at all), and each ETag's
 * answer is serialized once, by the route's response schema, then sent as those bytes until the
 * ETag changes (a publish, an edit or a counted view makes a new one).
 */
function createPublicReads(maxBodies = 512) {
  const bodies = new Map<string, Buffer>();
  return function send(
    request: FastifyRequest,
    reply: FastifyReply,
    etag: string,
    payload: () => unknown,
  ): FastifyReply {
    reply.header('etag', etag).header('cache-control', 'public, max-age=0, must-revalidate');
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
    // ETags name one answer: list pages and posts have distinct ones ("posts-…", "post-…").
    let body = bodies.get(etag);
    if (body === undefined) {
      // Encoded once: writing a string to the socket would encode it again on every answer.
      body = jsonBytes(reply, payload());
      if (bodies.size >= maxBodies) bodies.delete(bodies.keys().next().value!);
      bodies.set(etag, body);
    }
    return sendJsonBytes(reply, body);
  };
}

export async function blogRoutes(
  fastify: FastifyInstance,
  opts: { blog: BlogService; publisher: Publisher },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { blog, publisher } = opts;
  const tags = ['blog'];
  const admin = ['blog-admin'];
  const publicRead = createPublicReads();

  app.get(
    '/api/blog/posts',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: "One language's published posts, newest first (12 a page)",
        querystring: PostListQuery,
        response: { 200: PostListResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { page, limit, locale } = request.query;
      const { etag, data } = await blog.list(page, limit, locale);
      return publicRead(request, reply, etag, () => ({ success: true as const, data }));
    },
  );

  app.get(
    '/api/blog/posts/:slug',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'One published post',
        params: SlugParams,
        response: { 200: PostDetailResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { etag, data } = await blog.detail(request.params.slug);
      return publicRead(request, reply, etag, () => ({ success: true as const, data }));
    },
  );

  app.post(
    '/api/blog/posts/:slug/view',
    {
      config: { access: 'public', rateLimit: { max: 120, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary: 'Count one reading (the page sends it once per browser session)',
        params: SlugParams,
        response: { 200: Ok(Type.Object({ view_count: Type.Integer() })), ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: { view_count: await blog.recordView(request.params.slug) },
    }),
  );

  app.get(
    '/api/blog/admin/posts',
    {
      config: { access: 'editor' },
      schema: {
        tags: admin,
        summary: 'All posts (editors)',
        querystring: AdminPostListQuery,
        response: { 200: AdminPostListResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await blog.adminList(request.query.limit),
    }),
  );

  app.get(
    '/api/blog/admin/posts/:id',
    {
      config: { access: 'editor' },
      schema: {
        tags: admin,
        summary: 'One post (editors)',
        params: IdParams,
        response: { 200: Ok(AdminPostResponse.properties.data), ...errors },
      },
    },
    async (request) => ({ success: true as const, data: await blog.adminGet(request.params.id) }),
  );

  app.post(
    '/api/blog/admin/posts',
    {
      config: { access: 'editor' },
      bodyLimit: ARTICLE_BODY_LIMIT,
      schema: {
        tags: admin,
        summary: 'Create a post (editors)',
        body: PostInput,
        response: { 200: AdminPostResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await blog.create(currentUser(request), request.body),
      message: answerText('blog.created'),
    }),
  );

  app.put(
    '/api/blog/admin/posts/:id',
    {
      config: { access: 'editor' },
      bodyLimit: ARTICLE_BODY_LIMIT,
      schema: {
        tags: admin,
        summary: 'Update a post (editors)',
        params: IdParams,
        body: PostInput,
        response: { 200: AdminPostResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await blog.update(request.params.id, request.body),
      message: answerText('blog.updated'),
    }),
  );

  app.delete(
    '/api/blog/admin/posts/:id',
    {
      config: { access: 'editor' },
      schema: {
        tags: admin,
        summary: 'Delete a post (editors)',
        params: IdParams,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => {
      await blog.remove(request.params.id);
      return { success: true, message: answerText('blog.deleted') };
    },
  );

  // The two routes that read a form, in a scope of their own (core/uploads.ts).
  await app.register(async (scope) => {
    await scope.register(multipartPlugin);
    const uploads = scope.withTypeProvider<TypeBoxTypeProvider>();
    uploads.post(
      '/api/blog/admin/upload',
      {
        config: { access: 'editor' },
        schema: {
          tags: admin,
          summary: 'Upload a featured image (multipart field image)',
          consumes: ['multipart/form-data'],
          response: { 200: AdminUploadResponse, ...errors, 413: ErrorResponse },
        },
      },
      async (request) => ({
        success: true as const,
        data: { url: await blog.saveImage(await readImageUpload(request)) },
      }),
    );

    uploads.post(
      '/api/blog/upload-image',
      {
        config: { access: 'editor' },
        schema: {
          tags: admin,
          summary: 'Upload an image for the article body (multipart field image)',
          consumes: ['multipart/form-data'],
          response: { 200: InlineUploadResponse, ...errors, 413: ErrorResponse },
        },
      },
      async (request) => ({
        success: true as const,
        imageUrl: await blog.saveImage(await readImageUpload(request)),
        message: answerText('blog.image_uploaded'),
      }),
    );
  });

  app.get(
    '/api/blog/admin/build-status',
    {
      config: { access: 'editor' },
      schema: {
        tags: admin,
        summary: "Where publishing stands: 'queued', 'building' or 'live'",
        response: { 200: BuildStatusResponse, ...errors },
      },
    },
    async () => ({ success: true as const, data: publisher.status() }),
  );
}
