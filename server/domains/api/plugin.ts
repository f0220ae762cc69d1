/**
 * The public API for developers (issue 36), on the same services as the site (no second way to
 * make a video):
 * - keys: `/api/account/api-keys` for the session, `app.apiKeys` for the admin domain;
 * - `/v1`: a scope whose hooks authenticate `Authorization: Bearer vs_live_…`, check the route's
 *   `scope`, count the key's requests, give every answer an `x-request-id` and shape errors as
 *   `{ error: { code, message, param? } }`; its routes use the video and credits services, with
 *   `Idempotency-Key` on every POST;
 * - webhooks: endpoints and their deliveries for the session (`/api/account/webhooks`), and the
 *   dispatcher that sends the outbox (server/core/webhook-outbox.ts), started by server/main.ts.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import { VIDEO_CHANGE_CHANNEL, type Db } from '../../core/db.ts';
import { createUserCache } from '../../core/user-cache.ts';
import { createApiKeyService, type ApiKeyService, type Authentication } from './keys-service.ts';
import { apiKeyRoutes } from './keys-routes.ts';
import { v1Frame } from './v1-frame.ts';
import { v1VideoRoutes } from './v1-videos-routes.ts';
import { v1AccountRoutes } from './v1-account-routes.ts';
import { createIdempotency, scheduleIdempotencyCleanup } from './idempotency.ts';
import { createWebhookService, type WebhookService } from './webhooks-service.ts';
import { webhookRoutes } from './webhooks-routes.ts';
import {
  createWebhookDispatcher,
  scheduleWebhookPurge,
  type WebhookDispatcher,
} from './dispatcher.ts';

declare module 'fastify' {
  interface FastifyInstance {
    apiKeys: ApiKeyService;
    webhooks: WebhookService;
    /** Sends the outbox; server/main.ts starts it after listen and stops it on close. */
    webhookDispatcher: WebhookDispatcher;
  }
}

/** The video and credits services and the mailer come from their domains (app decorations). */
export interface ApiPluginOptions {
  config: Config;
  db: Db;
  /** The clock of retries and expiries (tests move it; AppDeps.now). Default: new Date(). */
  now?: (() => Date) | undefined;
}

export const apiPlugin = fp(
  async (app: FastifyInstance, opts: ApiPluginOptions) => {
    const { config, db } = opts;
    // Keys read once per process, dropped everywhere when their row or owner changes.
    const cache = await createUserCache<Authentication>(app.database, {
      changeNotices: app.database.changeNotices,
    });
    app.addHook('onClose', () => cache.stop().catch(() => {}));
    // /v1 video reads (a client polls one until it finishes), dropped when the owner's tasks change.
    const videoReads = await createUserCache<Buffer>(app.database, {
      changeNotices: app.database.changeNotices,
      channel: VIDEO_CHANGE_CHANNEL,
    });
    app.addHook('onClose', () => videoReads.stop().catch(() => {}));
    const apiKeys = createApiKeyService({ db, log: app.log, limits: config.apiLimits, cache });
    const webhooks = createWebhookService({ db, config, now: opts.now });
    const dispatcher = createWebhookDispatcher({
      db,
      config,
      mailer: app.mailer,
      log: app.log,
      metrics: app.metrics,
      now: opts.now,
    });
    app.decorate('apiKeys', apiKeys);
    app.decorate('webhooks', webhooks);
    app.decorate('webhookDispatcher', dispatcher);
    app.addHook('onClose', () => dispatcher.stop());
    scheduleWebhookPurge(app, db, dispatcher);

    await app.register(apiKeyRoutes, { apiKeys });
    await app.register(webhookRoutes, { webhooks });

    const idempotency = createIdempotency({ db, now: opts.now });
    scheduleIdempotencyCleanup(app, db, idempotency);
    await app.register(async (v1) => {
      await v1Frame(v1, { apiKeys, config });
      await v1VideoRoutes(v1, {
        db,
        video: app.video,
        idempotency,
        config,
        webhooks,
        videoReads,
      });
      await v1AccountRoutes(v1, { video: app.video, credits: app.credits });
    });
  },
  {
    name: 'api',
    dependencies: [
      'database',
      'access',
      'auth',
      'accounts',
      'metrics',
      'rate-limit',
      'credits',
      'video',
    ],
  },
);
