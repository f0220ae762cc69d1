/**
 * The video domain in the app: generation requests and task status, providers' completion
 * webhooks, and /media/… where finished videos and posters are served from the media store
 * (`app.mediaStore`, server/core/media-store). `app.videoProviders` holds the configured adapters, which the
 * in-process worker shares.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import type { Db } from '../../core/db.ts';
import { storedObjectRoutes } from '../../core/media-store/serve.ts';
import { MEDIA_KEYS } from '../../core/media-store/types.ts';
import { createVideoMedia, MEDIA_PREFIX, USER_MEDIA_CACHE } from './media.ts';
import type { VideoProvider } from './providers/types.ts';
import { defaultVideoLoss } from './providers/costs.ts';
import { videoRoutes } from './routes.ts';
import { createVideoService, type VideoService } from './service.ts';
import { createConfiguredProviders } from './setup.ts';
import { addQueueGauges } from './queue-metrics.ts';
import { videoReadiness } from './readiness.ts';
import { videoWebhookRoutes } from './webhook-routes.ts';

/** Webhook :provider name → metric label, for core's metrics plugin (core knows no provider). */
export { PROVIDER_METRICS_LABELS } from './providers/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    videoProviders: Record<string, VideoProvider>;
    /** Generation, status, history and deletion, for the public API (domains/api). */
    video: VideoService;
  }
}

export const videoPlugin = fp(
  async (app: FastifyInstance, opts: { config: Config; db: Db }) => {
    const { config } = opts;
    const media = createVideoMedia(app.mediaStore, config.dataDir);
    const providers = await createConfiguredProviders(config);
    const video = createVideoService({
      db: opts.db,
      media,
      routes: config.video.routes,
      maxCostUsd: config.video.routing.maxCostUsd,
      deadlineMs: config.video.deadlineMs,
    });
    // Issue 37, item 5: a route entry whose default video costs more than its credits bring.
    for (const entry of [...config.video.routes.text, ...config.video.routes.image]) {
      const loss = defaultVideoLoss(entry);
      if (loss) app.log.warn(entry, `video route entry ${entry.provider}:${entry.model} ${loss}`);
    }
    await app.register(videoRoutes, { video });
    // A customer's videos: deleted on request, so cached privately and briefly (media.ts).
    await app.register(storedObjectRoutes, {
      store: app.mediaStore,
      urlPrefix: MEDIA_PREFIX,
      keyPrefix: MEDIA_KEYS.media,
      cacheControl: USER_MEDIA_CACHE,
    });
    // Only where a configured provider signs its webhooks (fal, Replicate).
    if (Object.values(providers).some((p) => p.verifyWebhook)) {
      await app.register(videoWebhookRoutes, { db: opts.db, providers });
    }
    app.decorate('videoProviders', providers);
    app.decorate('video', video);
    app.addReadinessCheck(() => videoReadiness(opts.db, app.mediaStore));
    addQueueGauges(app.metrics, opts.db);
  },
  {
    name: 'video',
    dependencies: ['database', 'access', 'auth', 'health', 'metrics', 'media-store'],
  },
);
