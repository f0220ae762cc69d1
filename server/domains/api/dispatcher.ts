/**
 * Sends the webhook outbox (server/core/webhook-outbox.ts), at least once, signed per Standard
 * Webhooks (issue 36, item 4). Any number of instances run one each:
 *
 * - A sender claims a few due deliveries with FOR UPDATE SKIP LOCKED and holds them for a lease;
 *   one that dies after claiming leaves them to whoever polls after the lease (the same event,
 *   so the same `webhook-id`: receivers deduplicate on it).
 * - A 2xx delivers. 410 Gone fails the delivery and disables the endpoint at once, as the
 *   Standard Webhooks specification recommends (the receiver says the address is gone for good).
 *   Anything else (another status, a 3xx, a refused address, no answer) is retried after
 *   WEBHOOK_FIRST_RETRY_SECONDS × 4^(attempt − 1), at most WEBHOOK_MAX_RETRY_SECONDS, ±20 %
 *   jitter (so endpoints that failed together are not retried together), while that stays within
 *   WEBHOOK_RETRY_HOURS of the event; then it has failed.
 * - An endpoint failing since WEBHOOK_DISABLE_AFTER_DAYS ago is disabled, and its owner mailed
 *   once. A request's own webhook_url (the user's request-secret row) never disables anything:
 *   each request names its own address.
 *
 * `now` drives every time written and compared (passed to SQL as parameters), so tests move it.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../core/db.ts';
import type { Mailer } from '../../core/mailer.ts';
import type { Metrics } from '../../core/metrics.ts';
import { guardedFetch } from '../../core/outbound.ts';
import { createOutboxPoller } from '../../core/outbox-poller.ts';
import { scheduleRepeating } from '../../core/scheduler.ts';
import {
  WEBHOOK_DISABLE_AFTER_DAYS,
  WEBHOOK_FIRST_RETRY_SECONDS,
  WEBHOOK_MAX_RETRY_SECONDS,
  WEBHOOK_RETRY_HOURS,
} from '../../../shared/public-api.ts';
import * as repo from './dispatch-repository.ts';
import { attemptDelivery, type AttemptResult } from './webhook-delivery.ts';
import { endpointDisabledMail, type DisableReason } from './webhook-mail.ts';
import { webhookDispatchMetrics } from './webhook-metrics.ts';

const SECOND_MS = 1000;
const HOUR_MS = 60 * 60 * SECOND_MS;
const DAY_MS = 24 * HOUR_MS;
/** How long a claimed delivery is held: well past the send's 15-second timeout. */
export const DELIVERY_LEASE_MS = 60 * SECOND_MS;
/** Deliveries one poll claims and sends together. */
const BATCH = 10;
/** How long an idle sender waits before it looks again. */
const IDLE_POLL_MS = SECOND_MS;
/** Events (with their deliveries and attempts) are kept this long for the user's list. */
const EVENT_RETENTION_DAYS = 30;
/** Events one purge statement deletes (it repeats until none is left). */
const PURGE_BATCH = 1000;

/**
 * The wait before attempt `attempt + 1` after `attempt` failed (1-based), in milliseconds:
 * 5 s, 20 s, 80 s, … capped at 6 h, each ±20 % (`random` in [0, 1)).
 */
export function retryDelayMs(attempt: number, random: number): number {
  const base = Math.min(
    WEBHOOK_FIRST_RETRY_SECONDS * 4 ** (attempt - 1),
    WEBHOOK_MAX_RETRY_SECONDS,
  );
  return Math.round(base * (0.8 + 0.4 * random) * SECOND_MS);
}

export function createWebhookDispatcher(deps: {
  db: Db;
  config: Pick<Config, 'outbound' | 'publicSiteUrl'>;
  mailer: Mailer;
  log: FastifyBaseLogger;
  metrics: Pick<Metrics, 'registry'>;
  now?: (() => Date) | undefined;
  /** Jitter's source (tests pin it). Default: Math.random. */
  random?: () => number;
}) {
  const { db, config, mailer, log } = deps;
  const now = deps.now ?? (() => new Date());
  const random = deps.random ?? Math.random;
  const fetchFn = guardedFetch(config.outbound);
  const counters = webhookDispatchMetrics(deps.metrics.registry);

  /** Writes what an attempt led to; returns the endpoint it disabled, if any. */
  async function settle(delivery: repo.ClaimedDelivery, result: AttemptResult, at: Date) {
    const code = result.statusCode;
    const ok = code !== null && code >= 200 && code < 300;
    const gone = code === 410;
    return db.transaction(async (tx) => {
      let disabled: repo.DisabledEndpoint | null = null;
      if (ok && delivery.isEndpoint) await repo.clearFailing(tx, delivery.endpointId);
      if (!ok && delivery.isEndpoint) {
        const disableBefore = new Date(at.getTime() - WEBHOOK_DISABLE_AFTER_DAYS * DAY_MS);
        disabled = await repo.markFailing(tx, delivery.endpointId, at, disableBefore, gone);
      }
      const retryAt = new Date(at.getTime() + retryDelayMs(delivery.attemptCount + 1, random()));
      const deadline = delivery.eventCreatedAt.getTime() + WEBHOOK_RETRY_HOURS * HOUR_MS;
      const outcome: repo.AttemptOutcome = ok
        ? 'delivered'
        : gone || disabled || retryAt.getTime() > deadline
          ? 'failed'
          : 'retried';
      const held = await repo.recordAttempt(tx, delivery, {
        attemptedAt: at,
        ...result,
        outcome,
        nextAttemptAt: outcome === 'retried' ? retryAt : null,
      });
      if (!held) {
        log.warn({ deliveryId: delivery.id }, 'webhook delivery: the hold passed during the send');
      }
      return { outcome, disabled, reason: (gone ? 'gone' : 'failing') as DisableReason };
    });
  }

  async function deliver(delivery: repo.ClaimedDelivery): Promise<void> {
    const at = now();
    const result = await attemptDelivery(fetchFn, delivery, at);
    const { outcome, disabled, reason } = await settle(delivery, result, at);
    counters.attempt(outcome);
    if (!disabled) return;
    counters.endpointDisabled();
    log.warn({ endpointId: disabled.id, reason }, 'webhook endpoint disabled');
    try {
      await mailer.send(
        endpointDisabledMail(disabled.email, disabled.url, reason, config.publicSiteUrl),
      );
    } catch (err) {
      log.error({ err, endpointId: disabled.id }, 'the webhook endpoint disabled mail failed');
    }
  }

  // Polls until stop(): at once again while it finds work, every second when idle.
  const poller = createOutboxPoller({
    claim: (at, leaseUntil, batch) => repo.claimDue(db, at, leaseUntil, batch),
    handle: deliver,
    leaseMs: DELIVERY_LEASE_MS,
    batch: BATCH,
    idleMs: IDLE_POLL_MS,
    now,
    log,
    what: 'webhook delivery',
    describe: (delivery) => ({ deliveryId: delivery.id }),
  });

  return {
    start: poller.start,
    stop: poller.stop,
    runOnce: poller.runOnce,
    /**
     * Deletes events older than EVENT_RETENTION_DAYS with their deliveries and attempts (hourly,
     * scheduleWebhookPurge); returns how many events.
     */
    async purge(): Promise<number> {
      const before = new Date(now().getTime() - EVENT_RETENTION_DAYS * DAY_MS);
      let total = 0;
      for (;;) {
        const deleted = await repo.deleteEventsBefore(db, before, PURGE_BATCH);
        total += deleted;
        if (deleted < PURGE_BATCH) return total;
      }
    },
  };
}

export type WebhookDispatcher = ReturnType<typeof createWebhookDispatcher>;

/** The hourly purge of old events, on one instance per hour. */
export function scheduleWebhookPurge(
  app: FastifyInstance,
  db: Db,
  dispatcher: WebhookDispatcher,
): void {
  scheduleRepeating(app, db, {
    name: 'webhooks.purge',
    everyMs: HOUR_MS,
    run: () => dispatcher.purge(),
    failure: 'deleting old webhook events failed',
  });
}
