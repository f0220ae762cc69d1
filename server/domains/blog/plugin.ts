/**
 * The blog domain in the app: posts, their editors' routes and images. A change to public
 * content schedules a rebuild through the publisher; the service is `app.blog` for the data API,
 * the site and main.ts (which seeds the sample articles).
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import type { Db } from '../../core/db.ts';
import type { Publisher } from '../site-build/publisher.ts';
import { blogRoutes } from './routes.ts';
import { createBlogService, type BlogService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    blog: BlogService;
  }
}

export const blogPlugin = fp(
  async (app: FastifyInstance, opts: { config: Config; db: Db; publisher: Publisher }) => {
    const { publisher } = opts;
    const uploadsDir = path.join(opts.config.dataDir, 'uploads', 'blog');
    const blog = createBlogService({
      db: opts.db,
      uploadsDir,
      onPublicChange: () => publisher.schedule(),
    });
    await app.register(blogRoutes, { blog, publisher, uploadsDir });
    app.decorate('blog', blog);
  },
  { name: 'blog', dependencies: ['database', 'access', 'auth', 'multipart', 'site-build'] },
);
