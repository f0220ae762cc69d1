/**
 * The webhook outbox (issue 36): an event for a user's webhooks is written inside the transaction
 * of what caused it (a video finishing, failing, its refund, a balance falling low), so none is
 * lost when the process crashes after the commit and none is sent for a change that rolled back.
 * domains/api delivers the rows later, at least once, signed per Standard Webhooks.
 *
 * One statement per event: it finds the user's enabled endpoints that take the event type (and,
 * for a request's own `webhook_url`, the user's request-secret row), writes the event only when
 * there is somewhere to send it, and a pending delivery per target. A user without endpoints pays
 * one index lookup that finds nothing.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from './db.ts';
import type { WebhookEventType } from '../../shared/public-api.ts';

export interface OutboxEvent {
  userId: string;
  type: WebhookEventType;
  /** The event's `data`: for video events the video as GET /v1/videos/{id} answers it. */
  data: unknown;
  /** A request's own webhook_url (video events of an API request that named one). */
  requestUrl?: string | null;
}

/** The body every attempt sends (and signs) byte for byte. */
function eventBody(type: WebhookEventType, data: unknown, at: Date): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

/**
 * Writes `event` and one delivery per target, in `tx`. Returns the event id (the `webhook-id`
 * header), or null when the user has nowhere to send it.
 */
export async function recordEvent(tx: DbOrTx, event: OutboxEvent): Promise<string | null> {
  const id = randomUUID();
  const body = eventBody(event.type, event.data, new Date());
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`WITH targets AS (
          SELECT e.id, e.url FROM webhook_endpoints e
          WHERE e.user_id = ${event.userId} AND e.url IS NOT NULL AND e.disabled_at IS NULL
            AND ${event.type} = ANY(e.events)
          UNION ALL
          SELECT e.id, ${event.requestUrl ?? null}::text FROM webhook_endpoints e
          WHERE e.user_id = ${event.userId} AND e.url IS NULL
            AND ${event.requestUrl ?? null}::text IS NOT NULL
        ),
        ev AS (
          INSERT INTO customer_webhook_events (id, user_id, type, payload)
          SELECT ${id}::uuid, ${event.userId}::uuid, ${event.type}, ${body}
          WHERE EXISTS (SELECT 1 FROM targets)
          RETURNING id
        )
        INSERT INTO webhook_deliveries (id, event_id, endpoint_id, url, next_attempt_at)
        SELECT gen_random_uuid(), ev.id, t.id, t.url, now() FROM ev, targets t
        RETURNING event_id AS id`,
  );
  return rows.length > 0 ? id : null;
}

/**
 * `credits.low`: after a debit took a balance from `before` to `after`, to each endpoint whose
 * threshold the change crossed (before ≥ threshold > after), so it fires once per fall.
 */
export async function recordCreditsLow(
  tx: DbOrTx,
  userId: string,
  before: number,
  after: number,
): Promise<void> {
  if (after >= before) return;
  const id = randomUUID();
  const body = eventBody('credits.low', { balance: after, previous_balance: before }, new Date());
  await queryRows(
    tx,
    sql`WITH targets AS (
          SELECT e.id, e.url FROM webhook_endpoints e
          WHERE e.user_id = ${userId} AND e.url IS NOT NULL AND e.disabled_at IS NULL
            AND 'credits.low' = ANY(e.events)
            AND e.credits_low_threshold <= ${before} AND e.credits_low_threshold > ${after}
        ),
        ev AS (
          INSERT INTO customer_webhook_events (id, user_id, type, payload)
          SELECT ${id}::uuid, ${userId}::uuid, 'credits.low', ${body}
          WHERE EXISTS (SELECT 1 FROM targets)
          RETURNING id
        )
        INSERT INTO webhook_deliveries (id, event_id, endpoint_id, url, next_attempt_at)
        SELECT gen_random_uuid(), ev.id, t.id, t.url, now() FROM ev, targets t
        RETURNING event_id`,
  );
}
