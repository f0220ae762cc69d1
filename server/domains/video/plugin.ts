/**
 * The video domain in the app: generation requests and task status, providers' completion
 * webhooks, and the media store the finished videos are served from (`app.media`; the admin
 * self-test writes into it). `app.videoProviders` holds the configured adapters, which the
 * in-process worker shares.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import type { Db } from '../../core/db.ts';
import { createMediaStore, type MediaStore } from './media.ts';
import type { VideoProvider } from './providers/types.ts';
import { videoRoutes } from './routes.ts';
import { createVideoService } from './service.ts';
import { createConfiguredProviders } from './setup.ts';
import { addQueueGauges } from './queue-metrics.ts';
import { videoReadiness } from './readiness.ts';
import { videoWebhookRoutes } from './webhook-routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    media: MediaStore;
    videoProviders: Record<string, VideoProvider>;
  }
}

export const videoPlugin = fp(
  async (app: FastifyInstance, opts: { config: Config; db: Db }) => {
    const { config } = opts;
    const media = createMediaStore(config.dataDir);
    const providers = createConfiguredProviders(config);
    const video = createVideoService({
      db: opts.db,
      uploadsDir: path.join(config.dataDir, 'uploads'),
      firstProvider: {
        text: config.video.routes.text[0]!.provider,
        image: config.video.routes.image[0]!.provider,
      },
      deadlineMs: config.video.deadlineMs,
    });
    await app.register(videoRoutes, { video, mediaDir: media.dir });
    // Only where a configured provider signs its webhooks (fal, Replicate).
    if (Object.values(providers).some((p) => p.verifyWebhook)) {
      await app.register(videoWebhookRoutes, { db: opts.db, providers });
    }
    app.decorate('media', media);
    app.decorate('videoProviders', providers);
    app.addReadinessCheck(() => videoReadiness(opts.db, media));
    addQueueGauges(app.metrics, opts.db);
  },
  { name: 'video', dependencies: ['database', 'access', 'auth', 'multipart', 'health', 'metrics'] },
);
