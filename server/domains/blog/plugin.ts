/**
 * The blog domain in the app: posts, their editors' routes and images. A change to public
 * content schedules a rebuild through the publisher; the service is `app.blog` for the data API,
 * the site and main.ts (which seeds the sample articles).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import type { Db } from '../../core/db.ts';
import { storedObjectRoutes } from '../../core/media-store/serve.ts';
import { MEDIA_KEYS } from '../../core/media-store/types.ts';
import type { Publisher } from '../site-build/plugin.ts';
import { blogRoutes } from './routes.ts';
import { BLOG_UPLOADS_PREFIX, createBlogService, type BlogService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    blog: BlogService;
  }
}

export const blogPlugin = fp(
  async (app: FastifyInstance, opts: { config: Config; db: Db; publisher: Publisher }) => {
    const { publisher } = opts;
    const blog = createBlogService({
      db: opts.db,
      store: app.mediaStore,
      onPublicChange: () => publisher.schedule(),
    });
    await app.register(blogRoutes, { blog, publisher });
    // Editors' images: random names, never rewritten, so they cache for a year. Public, like
    // the posts that show them.
    await app.register(storedObjectRoutes, {
      store: app.mediaStore,
      urlPrefix: BLOG_UPLOADS_PREFIX,
      keyPrefix: MEDIA_KEYS.blogUploads,
      cacheControl: 'public, max-age=31536000, immutable',
    });
    app.decorate('blog', blog);
  },
  {
    name: 'blog',
    dependencies: ['database', 'access', 'auth', 'site-build', 'media-store'],
  },
);
