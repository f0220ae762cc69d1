/**
 * The video domain in the app: generation requests and task status, and the media store the
 * finished videos are served from (`app.media`; the admin self-test writes into it).
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import type { Db } from '../../core/db.ts';
import { createMediaStore, type MediaStore } from './media.ts';
import { videoRoutes } from './routes.ts';
import { createVideoService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    media: MediaStore;
  }
}

export const videoPlugin = fp(
  async (app: FastifyInstance, opts: { config: Config; db: Db }) => {
    const { config } = opts;
    const media = createMediaStore(config.dataDir);
    const video = createVideoService({
      db: opts.db,
      uploadsDir: path.join(config.dataDir, 'uploads'),
      providerName: config.video.provider,
      deadlineMs: config.video.deadlineMs,
    });
    await app.register(videoRoutes, { video, mediaDir: media.dir });
    app.decorate('media', media);
  },
  { name: 'video', dependencies: ['database', 'access', 'auth', 'multipart'] },
);
