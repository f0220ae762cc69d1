/** HTTP for video: generate (multipart), task status, history, deleting a video. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { currentUser } from '../../core/auth.ts';
import { AppError, badRequest, knownClientError, notFound } from '../../core/errors.ts';
import { refuseNul } from '../../core/request-input.ts';
import { multipartPlugin } from '../../core/uploads.ts';
import { ErrorResponse } from '../../contracts/common.ts';
import {
  GenerateResponse,
  HistoryQuery,
  HistoryResponse,
  QuoteQuery,
  QuoteResponse,
  TaskStatusResponse,
} from '../../contracts/video.ts';
import { MEGABYTE } from '../../../shared/images.ts';
import { IMAGE_MODEL, MAX_IMAGE_BYTES, TEXT_MODEL, VIDEO_COST } from '../../../shared/video.ts';
import { MAX_REFERENCE_IMAGES, OPTION_FIELDS } from '../../../shared/video-options.ts';
import { toOptionsData } from '../../../shared/video-options.ts';
import type { VideoService } from './service.ts';
import { answerText, msg } from '../../core/api-messages.ts';
import { isUuid } from '../../core/uuid.ts';

/** Generate requests one user may send per minute (issue 34, finding 7); the task cap is 3. */
const GENERATE_PER_MINUTE = 12;

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };
const TaskParams = Type.Object({ taskId: Type.String({ format: 'uuid' }) });
/**
 * Any text, not only a uuid: `DELETE /api/video/history` (or another word) names no task and
 * answers 404 like an unknown id, never a 400 that suggests the address exists.
 */
const DeleteParams = Type.Object({ taskId: Type.String({ minLength: 1, maxLength: 100 }) });
/** The generate form's text fields: the prompt, the model and the options (issue 35). */
const TEXT_FIELDS: readonly string[] = [
  'prompt',
  'model',
  ...Object.values(OPTION_FIELDS).filter(
    (name) => name !== OPTION_FIELDS.lastFrame && name !== OPTION_FIELDS.referenceImages,
  ),
];
/** The generate form's files: a first frame, an end frame, up to three reference images. */
const FILE_FIELDS = new Set<string>(['image', 'last_frame', 'reference_images']);

export async function videoRoutes(fastify: FastifyInstance, opts: { video: VideoService }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { video } = opts;
  const tags = ['video'];

  // The one route here that reads a form, in a scope of its own (core/uploads.ts).
  await app.register(async (scope) => {
    // A first frame and an end frame, or up to three reference images, and one more to refuse.
    await scope.register(multipartPlugin, { files: 1 + MAX_REFERENCE_IMAGES });
    generateRoute(scope, video, tags);
  });

  app.get(
    '/api/video/quote',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary:
          'What a video with these generate fields would cost (files as last_frame=1 and reference_images=N); 400 when no provider here can make it',
        querystring: QuoteQuery,
        response: { 200: QuoteResponse, 400: ErrorResponse },
      },
    },
    async (request) => {
      const { model, ...fields } = request.query;
      const { credits, options } = video.quote(model, fields);
      return {
        success: true as const,
        data: { credits, options: toOptionsData(options) },
        message: answerText('video.quote_ok', { credits }),
      };
    },
  );

  app.get(
    '/api/video/status/:taskId',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Status of one of your video tasks',
        params: TaskParams,
        response: { 200: TaskStatusResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await video.status(currentUser(request).id, request.params.taskId),
    }),
  );

  app.delete(
    '/api/video/:taskId',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary:
          'Delete one of your finished videos: gone from history, result and poster deleted (credits are not refunded)',
        params: DeleteParams,
        response: {
          204: Type.Null({ description: 'Deleted' }),
          ...errors,
          409: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const { taskId } = request.params;
      if (!isUuid(taskId)) throw notFound(msg('video.task_not_found'), 'TASK_NOT_FOUND');
      await video.deleteVideo(currentUser(request).id, taskId.toLowerCase());
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/video/history',
    {
      config: { access: 'user', signInMessage: msg('video.history_sign_in_required') },
      schema: {
        tags,
        summary: 'Your completed videos, newest first',
        querystring: HistoryQuery,
        response: { 200: HistoryResponse, ...errors },
      },
    },
    async (request) => {
      const { page, limit, cursor } = request.query;
      const userId = currentUser(request).id;
      if (cursor !== undefined && page > 1) {
        throw badRequest(msg('video.cursor_with_page'), 'CURSOR_WITH_PAGE');
      }
      const data =
        cursor === undefined
          ? await video.history(userId, page, limit)
          : await video.historyAfter(userId, cursor, limit);
      return { success: true as const, data, message: answerText('common.ok') };
    },
  );
}

/** POST /api/video/generate: prompt, model and (image mode) one image, as multipart. */
function generateRoute(fastify: FastifyInstance, video: VideoService, tags: string[]) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/api/video/generate',
    {
      // Checked before the upload is read: a signed-out visitor's image is never parsed. Each user
      // has their own limit (after the session is read: preHandler), besides the task cap.
      config: {
        access: 'user',
        signInMessage: msg('video.sign_in_required'),
        rateLimit: {
          max: GENERATE_PER_MINUTE,
          timeWindow: '1 minute',
          hook: 'preHandler',
          keyGenerator: (request: FastifyRequest) =>
            `video-generate:${request.user?.id ?? request.ip}`,
        },
      },
      schema: {
        tags,
        summary: `Start a video: multipart prompt, model and (image mode) image; costs ${VIDEO_COST} credits`,
        consumes: ['multipart/form-data'],
        response: {
          200: GenerateResponse,
          ...errors,
          402: ErrorResponse,
          413: ErrorResponse,
          429: ErrorResponse,
          503: ErrorResponse,
        },
      },
    },
    async (request) => {
      if (!request.isMultipart()) {
        throw badRequest(msg('video.multipart_required'), 'MULTIPART_REQUIRED');
      }
      const fields: Record<string, string> = {};
      let image: Buffer | undefined;
      let lastFrame: Buffer | undefined;
      const referenceImages: Buffer[] = [];
      /** Files of each field seen so far, read or not. */
      const seen = { image: 0, last_frame: 0, reference_images: 0 };
      const files = () => ({
        lastFrame: seen.last_frame > 0,
        referenceImages: seen.reference_images,
      });
      // With no model field, a first frame means image mode (the generator sends it first).
      const modelOf = () => fields.model ?? (seen.image > 0 ? IMAGE_MODEL : TEXT_MODEL);
      let checked = false;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            const field = part.fieldname as keyof typeof seen;
            if (!FILE_FIELDS.has(field))
              throw badRequest(
                msg('video.unexpected_file', { name: part.fieldname }),
                'UNEXPECTED_FILE',
              );
            if (field === 'reference_images' && seen.reference_images >= MAX_REFERENCE_IMAGES) {
              throw badRequest(
                msg('video.too_many_reference_images', { max: MAX_REFERENCE_IMAGES }),
                'TOO_MANY_REFERENCE_IMAGES',
              );
            }
            if (field !== 'reference_images' && seen[field] > 0) {
              throw badRequest(msg('video.too_many_parts'), 'TOO_MANY_PARTS');
            }
            seen[field] += 1;
            // Before the first upload is read: a user who cannot pay, or who has the most
            // unfinished tasks, is answered before the rest of the body arrives. The price
            // counts the files seen so far: the generator sends an end frame before the first
            // frame, so the refusal names the full price (reference images are priced once).
            if (!checked) {
              checked = true;
              await video.assertCanStart(currentUser(request), modelOf(), fields, files());
            }
            const bytes = await part.toBuffer();
            if (field === 'image') image = bytes;
            else if (field === 'last_frame') lastFrame = bytes;
            else referenceImages.push(bytes);
          } else if (typeof part.value === 'string') {
            // A misspelt option would otherwise make a default video, and charge for it.
            if (!TEXT_FIELDS.includes(part.fieldname)) {
              throw badRequest(
                msg('video.unexpected_field', {
                  name: part.fieldname.slice(0, 40),
                  fields: TEXT_FIELDS.join(', '),
                }),
                'UNEXPECTED_FIELD',
              );
            }
            refuseNul(part.value, part.fieldname);
            fields[part.fieldname] = part.value;
          }
        }
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new AppError(
            413,
            'IMAGE_TOO_LARGE',
            msg('images.too_large', { megabytes: MAX_IMAGE_BYTES / MEGABYTE }),
          );
        }
        if (
          code === 'FST_PARTS_LIMIT' ||
          code === 'FST_FILES_LIMIT' ||
          code === 'FST_FIELDS_LIMIT'
        ) {
          throw badRequest(msg('video.too_many_parts'), 'TOO_MANY_PARTS');
        }
        if (error instanceof AppError) throw error;
        const known = knownClientError(error);
        if (known) throw known;
        throw badRequest(msg('upload.unreadable'), 'MULTIPART_INVALID');
      }
      const result = await video.submit(currentUser(request), {
        prompt: fields.prompt,
        model: fields.model,
        image,
        fields,
        lastFrame,
        referenceImages,
      });
      return { success: true as const, data: result, message: answerText('video.started') };
    },
  );
}
