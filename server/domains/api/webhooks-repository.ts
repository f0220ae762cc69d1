/**
 * SQL for a user's webhook endpoints and their deliveries as the session API shows them (the
 * dispatcher's own statements are in dispatch-repository.ts). Every function takes `db | tx`
 * first. Rows leave here as the shared JSON shapes, never with a secret, except where a new one
 * is handed back once.
 */
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../core/db.ts';
import { cursorTimestampSql, keysetBefore, type CursorKey } from '../../core/cursor.ts';
import { webhookDeliveries, webhookEndpoints, type WebhookEndpointRow } from '../../db/schema.ts';
import type {
  RequestSecretInfo,
  WebhookAttemptInfo,
  WebhookDeliveryInfo,
  WebhookEndpointInfo,
  WebhookEventType,
} from '../../../shared/public-api.ts';

/** The newest attempts a delivery lists (a day of retries is about ten; resends add some). */
const ATTEMPTS_SHOWN = 50;

const iso = (value: Date | string): string => new Date(value).toISOString();
const isoOrNull = (value: Date | string | null): string | null => (value ? iso(value) : null);

/** The previous secret's expiry while it still signs at `now`, else null. */
const overlapUntil = (row: WebhookEndpointRow, now: Date): string | null =>
  row.previousSecretExpiresAt && row.previousSecretExpiresAt > now
    ? iso(row.previousSecretExpiresAt)
    : null;

export const toEndpointInfo = (row: WebhookEndpointRow, now: Date): WebhookEndpointInfo => ({
  id: row.id,
  url: row.url ?? '',
  events: row.events as WebhookEventType[],
  credits_low_threshold: row.creditsLowThreshold,
  created_at: iso(row.createdAt),
  previous_secret_expires_at: overlapUntil(row, now),
  failing_since: isoOrNull(row.failingSince),
  disabled_at: isoOrNull(row.disabledAt),
});

export const toRequestSecretInfo = (row: WebhookEndpointRow, now: Date): RequestSecretInfo => ({
  id: row.id,
  created_at: iso(row.createdAt),
  previous_secret_expires_at: overlapUntil(row, now),
});

/**
 * Holds the user's row until the transaction ends: endpoint creations of one user take turns, so
 * two parallel ones cannot both see room for one more (or both create the request-secret row).
 * False when the user does not exist.
 */
export async function lockUser(tx: DbOrTx, userId: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`select id from users where id = ${userId} for update`,
  );
  return rows.length > 0;
}

/** Endpoints (with a URL) that still receive events. */
export async function countEnabled(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from webhook_endpoints
        where user_id = ${userId} and url is not null and disabled_at is null`,
  );
  return row?.n ?? 0;
}

export async function insertEndpoint(
  db: DbOrTx,
  row: {
    id: string;
    userId: string;
    url: string | null;
    events: string[];
    creditsLowThreshold: number;
    secret: string;
  },
): Promise<WebhookEndpointRow> {
  const [inserted] = await db.insert(webhookEndpoints).values(row).returning();
  return inserted!;
}

/** The user's endpoints and request-secret row, oldest first (at most a handful per user). */
export async function listEndpoints(db: DbOrTx, userId: string): Promise<WebhookEndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.userId, userId))
    .orderBy(webhookEndpoints.createdAt, webhookEndpoints.id)
    .limit(100);
}

/** The user's endpoint `id` (another user's reads as none). */
export async function findEndpoint(
  db: DbOrTx,
  userId: string,
  id: string,
): Promise<WebhookEndpointRow | null> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)));
  return row ?? null;
}

export async function findRequestSecretRow(
  db: DbOrTx,
  userId: string,
): Promise<WebhookEndpointRow | null> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.userId, userId), isNull(webhookEndpoints.url)))
    .limit(1);
  return row ?? null;
}

/** Deletes the user's endpoint (its deliveries and attempts go with it); false when none. */
export async function deleteEndpoint(db: DbOrTx, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
    .returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

/**
 * A new secret for the user's endpoint; the current one becomes the previous, which signs until
 * `overlapEnds` (a previous one still within its overlap is dropped: two secrets at most).
 */
export async function rotateSecret(
  db: DbOrTx,
  userId: string,
  id: string,
  secret: string,
  overlapEnds: Date,
): Promise<WebhookEndpointRow | null> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      previousSecret: sql`${webhookEndpoints.secret}`,
      previousSecretExpiresAt: overlapEnds,
      secret,
    })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
    .returning();
  return row ?? null;
}

interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: string;
  url: string;
  status: WebhookDeliveryInfo['status'];
  next_attempt_at: Date | string | null;
  created_at: Date | string;
  cursor_ts: string;
  payload: string;
  attempts: Array<{
    attempted_at: string;
    status_code: number | null;
    response: string;
    duration_ms: number;
  }> | null;
}

const toDeliveryInfo = (row: DeliveryRow): WebhookDeliveryInfo => ({
  id: row.id,
  event_id: row.event_id,
  event_type: row.event_type as WebhookEventType,
  url: row.url,
  status: row.status,
  attempts: (row.attempts ?? []).map((a): WebhookAttemptInfo => ({
    attempted_at: iso(a.attempted_at),
    status_code: a.status_code,
    response: a.response,
    duration_ms: a.duration_ms,
  })),
  next_attempt_at: row.status === 'pending' ? isoOrNull(row.next_attempt_at) : null,
  created_at: iso(row.created_at),
  payload: row.payload,
});

/** A delivery with its event and newest attempts (oldest first), from `where`. */
function deliveriesSql(where: SQL, limit: number) {
  return sql`select d.id, d.event_id, e.type as event_type, d.url, d.status, d.next_attempt_at,
            d.created_at, ${cursorTimestampSql(sql`d.created_at`)} as cursor_ts, e.payload,
            (select json_agg(a order by a.attempted_at, a.id) from (
               select id, attempted_at, status_code, response, duration_ms
               from webhook_attempts where delivery_id = d.id
               order by attempted_at desc, id desc limit ${ATTEMPTS_SHOWN}) a) as attempts
          from webhook_deliveries d
          join customer_webhook_events e on e.id = d.event_id
          where ${where}
          order by d.created_at desc, d.id desc
          limit ${limit}`;
}

/**
 * A page of an endpoint's deliveries, newest first, after `after` (webhook_deliveries_endpoint_idx
 * serves the range and order); `limit + 1` rows, the extra saying there is more.
 */
export async function deliveriesPage(
  db: DbOrTx,
  endpointId: string,
  after: CursorKey | null,
  limit: number,
): Promise<Array<WebhookDeliveryInfo & { cursorTs: string }>> {
  const where = after
    ? sql`d.endpoint_id = ${endpointId} and ${keysetBefore(sql`d.created_at`, sql`d.id`, after)}`
    : sql`d.endpoint_id = ${endpointId}`;
  const rows = await queryRows<DeliveryRow>(db, deliveriesSql(where, limit + 1));
  return rows.map((row) => ({ ...toDeliveryInfo(row), cursorTs: row.cursor_ts }));
}

export async function findDelivery(db: DbOrTx, id: string): Promise<WebhookDeliveryInfo | null> {
  const [row] = await queryRows<DeliveryRow>(db, deliveriesSql(sql`d.id = ${id}`, 1));
  return row ? toDeliveryInfo(row) : null;
}

/** The owner and state of a delivery's endpoint, for a resend. */
export async function deliveryOwner(
  db: DbOrTx,
  deliveryId: string,
): Promise<{ userId: string; disabledAt: Date | null } | null> {
  const [row] = await db
    .select({ userId: webhookEndpoints.userId, disabledAt: webhookEndpoints.disabledAt })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, deliveryId));
  return row ?? null;
}

/**
 * Sends a delivery again, as soon as a sender is free: pending with its next attempt at `now`.
 * Its event (and so its `webhook-id` and body) stays the same; a sender holding it keeps its hold.
 */
export async function resetDelivery(db: DbOrTx, deliveryId: string, now: Date): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: now })
    .where(eq(webhookDeliveries.id, deliveryId));
}
