/**
 * The dispatcher's SQL (dispatcher.ts): claiming due deliveries, writing what an attempt led to,
 * failing and disabling endpoints, and deleting old events. Every time compared or written is a
 * parameter from the dispatcher's clock, never the database's now(), so tests move time by
 * moving that clock.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../core/db.ts';

const ts = (at: Date) => sql`${at.toISOString()}::timestamptz`;

/** A delivery a sender holds, with what sending it needs. */
export interface ClaimedDelivery {
  id: string;
  eventId: string;
  url: string;
  /** Attempts made before this one. */
  attemptCount: number;
  payload: string;
  eventCreatedAt: Date;
  endpointId: string;
  /** False for the user's request-secret row (a request's own webhook_url). */
  isEndpoint: boolean;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  /** The hold: the delivery is this sender's until then (its outcome is written only if so). */
  lockedUntil: Date;
}

interface ClaimRow {
  id: string;
  event_id: string;
  url: string;
  attempt_count: number;
  payload: string;
  event_created_at: Date | string;
  endpoint_id: string;
  endpoint_url: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | string | null;
}

/**
 * Holds up to `limit` due deliveries (pending, next attempt reached, not held or their hold
 * passed) until `lockedUntil`: other senders skip rows this one has locked, and a sender that
 * dies after claiming leaves them to be taken over once the hold passes (at least once, with the
 * same event and so the same `webhook-id`).
 */
export async function claimDue(
  db: DbOrTx,
  now: Date,
  lockedUntil: Date,
  limit: number,
): Promise<ClaimedDelivery[]> {
  const rows = await queryRows<ClaimRow>(
    db,
    sql`with due as (
          select id from webhook_deliveries
          where status = 'pending' and next_attempt_at <= ${ts(now)}
            and (locked_until is null or locked_until <= ${ts(now)})
          order by next_attempt_at
          limit ${limit}
          for update skip locked
        )
        update webhook_deliveries d set locked_until = ${ts(lockedUntil)}
        from due, customer_webhook_events e, webhook_endpoints w
        where d.id = due.id and e.id = d.event_id and w.id = d.endpoint_id
        returning d.id, d.event_id, d.url, d.attempt_count, e.payload,
          e.created_at as event_created_at, w.id as endpoint_id, w.url as endpoint_url,
          w.secret, w.previous_secret, w.previous_secret_expires_at`,
  );
  return rows.map((row) => ({
    id: row.id,
    eventId: row.event_id,
    url: row.url,
    attemptCount: row.attempt_count,
    payload: row.payload,
    eventCreatedAt: new Date(row.event_created_at),
    endpointId: row.endpoint_id,
    isEndpoint: row.endpoint_url !== null,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretExpiresAt: row.previous_secret_expires_at
      ? new Date(row.previous_secret_expires_at)
      : null,
    lockedUntil,
  }));
}

export type AttemptOutcome = 'delivered' | 'retried' | 'failed';

export interface AttemptRecord {
  attemptedAt: Date;
  statusCode: number | null;
  response: string;
  durationMs: number;
  outcome: AttemptOutcome;
  /** When `outcome` is retried. */
  nextAttemptAt: Date | null;
}

/**
 * Writes an attempt and, while the sender still holds the delivery, its new state. Returns
 * whether it still held it (a sender whose hold passed mid-send leaves the state to the next).
 */
export async function recordAttempt(
  tx: DbOrTx,
  delivery: ClaimedDelivery,
  attempt: AttemptRecord,
): Promise<boolean> {
  await queryRows(
    tx,
    sql`insert into webhook_attempts
          (delivery_id, attempted_at, status_code, response, duration_ms, outcome)
        values (${delivery.id}, ${ts(attempt.attemptedAt)}, ${attempt.statusCode},
          ${attempt.response}, ${attempt.durationMs}, ${attempt.outcome})`,
  );
  const status = attempt.outcome === 'retried' ? 'pending' : attempt.outcome;
  const next = attempt.nextAttemptAt ? ts(attempt.nextAttemptAt) : sql`null`;
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`update webhook_deliveries
        set status = ${status}, next_attempt_at = ${next}, locked_until = null,
          attempt_count = attempt_count + 1
        where id = ${delivery.id} and locked_until = ${ts(delivery.lockedUntil)}
        returning id`,
  );
  return rows.length > 0;
}

/** A success: the endpoint is no longer failing. */
export async function clearFailing(tx: DbOrTx, endpointId: string): Promise<void> {
  await queryRows(
    tx,
    sql`update webhook_endpoints set failing_since = null
        where id = ${endpointId} and failing_since is not null`,
  );
}

/** An endpoint just disabled, with whom to tell. */
export interface DisabledEndpoint {
  id: string;
  url: string;
  email: string;
}

/**
 * A failure: the endpoint is failing since now unless it already was. It is disabled when
 * `disable` (it answered 410 Gone) or when it has been failing since `disableBefore` or earlier;
 * returns it when this call disabled it (once: a disabled endpoint is not disabled again), after
 * failing its pending deliveries (nothing more goes to it).
 */
export async function markFailing(
  tx: DbOrTx,
  endpointId: string,
  now: Date,
  disableBefore: Date,
  disable: boolean,
): Promise<DisabledEndpoint | null> {
  const [row] = await queryRows<{ id: string; url: string; user_id: string; disabled: boolean }>(
    tx,
    sql`update webhook_endpoints set
          failing_since = coalesce(failing_since, ${ts(now)}),
          disabled_at = case
            when ${disable}::boolean or coalesce(failing_since, ${ts(now)}) <= ${ts(disableBefore)}
            then ${ts(now)} end
        where id = ${endpointId} and disabled_at is null
        returning id, url, user_id, disabled_at is not null as disabled`,
  );
  if (!row?.disabled) return null;
  const [owner] = await queryRows<{ email: string }>(
    tx,
    sql`select email from users where id = ${row.user_id}`,
  );
  await queryRows(
    tx,
    sql`update webhook_deliveries set status = 'failed', next_attempt_at = null
        where endpoint_id = ${endpointId} and status = 'pending'`,
  );
  return { id: row.id, url: row.url, email: owner?.email ?? '' };
}

/**
 * Deletes events created before `before` (their deliveries and attempts go with them), at most
 * `limit` a call (customer_webhook_events_created_idx); returns how many.
 */
export async function deleteEventsBefore(db: DbOrTx, before: Date, limit: number): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`delete from customer_webhook_events where id in (
          select id from customer_webhook_events where created_at < ${ts(before)}
          order by created_at limit ${limit})
        returning id`,
  );
  return rows.length;
}
