/**
 * Providers' completion webhooks (fal, Replicate): POST /api/video/webhooks/{provider}. The body
 * is verified with the provider's own scheme (fal: ED25519 over its JWKS; Replicate: Standard
 * Webhooks HMAC) before anything is read; a verified one only moves its task's next status check
 * to now. The status check itself asks the provider, so a replayed, duplicated or reordered
 * delivery can never complete, fail or refund a task on its own; and each delivery is taken once
 * (its id kept 24 h in the shared counters table, so across instances too). A delivery whose key
 * cannot be had (the provider's key endpoint is down) answers 503 with Retry-After, so the
 * provider delivers it again (issue 34, finding 4).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { AppError, notFound } from '../../core/errors.ts';
import type { Db } from '../../core/db.ts';
import { isProviderError } from './providers/errors.ts';
import type { VideoProvider } from './providers/types.ts';
import * as repo from './repository.ts';
import { msg } from '../../core/api-messages.ts';
import { countHit } from '../../core/rate-limit-store.ts';

/** How long a delivery id is remembered: providers stop retrying well within a day. */
const DELIVERY_MEMORY_MS = 24 * 60 * 60_000;
/** Retry-After of a 503 when the provider's key could not be fetched (seconds). */
const KEY_RETRY_AFTER_S = 60;

const Params = Type.Object({ provider: Type.String({ pattern: '^[a-z]{1,20}$', maxLength: 20 }) });

export async function videoWebhookRoutes(
  app: FastifyInstance,
  opts: { db: Db; providers: Record<string, VideoProvider> },
) {
  // Signatures cover the exact bytes sent: this scope keeps the raw body.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
    done(null, body),
  );
  app.post(
    '/api/video/webhooks/:provider',
    {
      config: { access: 'webhook' },
      schema: {
        tags: ['video'],
        summary: "A video provider's completion webhook (signed)",
        params: Params,
      },
    },
    async (request, reply) => {
      const { provider: name } = request.params as { provider: string };
      const provider = Object.hasOwn(opts.providers, name) ? opts.providers[name] : undefined;
      if (!provider?.verifyWebhook) {
        throw notFound(msg('video.unknown_webhook', { name }), 'UNKNOWN_WEBHOOK');
      }
      let notice;
      try {
        notice = await provider.verifyWebhook({
          headers: request.headers,
          rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        });
      } catch (error) {
        if (isProviderError(error) && error.retryable) {
          request.log.warn({ provider: name, err: error.message }, 'video webhook key unavailable');
          const seconds = Math.max(
            1,
            Math.ceil((error.retryAfterMs ?? KEY_RETRY_AFTER_S * 1000) / 1000),
          );
          reply.header('retry-after', String(seconds));
          throw new AppError(503, 'WEBHOOK_KEY_UNAVAILABLE', msg('video.webhook_key_unavailable'));
        }
        if (!isProviderError(error)) throw error;
        request.log.warn({ provider: name, err: error.message }, 'video webhook refused');
        throw new AppError(
          400,
          'WEBHOOK_SIGNATURE_INVALID',
          msg('video.webhook_signature_invalid'),
        );
      }
      if (notice.deliveryId) {
        const key = `webhook-delivery:${name}:${notice.deliveryId}`;
        const seen = await countHit(opts.db, key, DELIVERY_MEMORY_MS, {
          max: 1,
          restartWhenOver: false,
        });
        if (seen.current > 1) {
          request.log.info(
            { provider: name, delivery: notice.deliveryId },
            'video webhook delivery already taken',
          );
          return { received: true, tasks: 0, duplicate: true };
        }
      }
      const tasks = await repo.nudgeByRequestId(opts.db, name, notice.providerRequestId);
      request.log.info(
        { provider: name, requestId: notice.providerRequestId, delivery: notice.deliveryId, tasks },
        'video webhook received',
      );
      return { received: true, tasks };
    },
  );
}
