/**
 * SQL for `Idempotency-Key` rows (idempotency_keys, issue 36). Every function takes `db | tx`
 * first. Times come from the caller's clock as ISO text, so tests can move it; a row's
 * `locked_until` is also its holder's token: only the request that wrote it may store the answer
 * or release the row.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../core/db.ts';

export interface IdempotencyRecord {
  request_hash: string;
  status: 'in_flight' | 'done';
  response_status: number | null;
  response_body: unknown;
  /** Past its 24 h: any request may take the key over. */
  expired: boolean;
  /** In flight past its lock (its request died): a retry with the same body may take it over. */
  abandoned: boolean;
}

/**
 * Claims the key for a request, as one statement: a new row, or one that may be taken over (it
 * expired, or its request crashed: still in flight past its lock, with the same request). True
 * when this caller now holds the row until `lockedUntil`; false when another row stands (read it).
 */
export async function claim(
  db: DbOrTx,
  row: {
    apiKeyId: string;
    key: string;
    requestHash: string;
    now: string;
    lockedUntil: string;
    expiresAt: string;
  },
): Promise<boolean> {
  const claimed = await queryRows<{ key: string }>(
    db,
    sql`insert into idempotency_keys as k
          (api_key_id, key, request_hash, status, locked_until, created_at, expires_at)
        values (${row.apiKeyId}, ${row.key}, ${row.requestHash}, 'in_flight',
          ${row.lockedUntil}::timestamptz, ${row.now}::timestamptz, ${row.expiresAt}::timestamptz)
        on conflict (api_key_id, key) do update
          set request_hash = excluded.request_hash, status = 'in_flight',
              response_status = null, response_body = null,
              locked_until = excluded.locked_until, created_at = excluded.created_at,
              expires_at = excluded.expires_at
          where k.expires_at <= ${row.now}::timestamptz
             or (k.status = 'in_flight' and k.locked_until <= ${row.now}::timestamptz
                 and k.request_hash = excluded.request_hash)
        returning k.key`,
  );
  return claimed.length > 0;
}

/** The row of a key another request holds or answered. */
export async function find(
  db: DbOrTx,
  apiKeyId: string,
  key: string,
  now: string,
): Promise<IdempotencyRecord | null> {
  const [row] = await queryRows<IdempotencyRecord>(
    db,
    sql`select request_hash, status, response_status, response_body,
          expires_at <= ${now}::timestamptz as expired,
          (status = 'in_flight' and locked_until <= ${now}::timestamptz) as abandoned
        from idempotency_keys where api_key_id = ${apiKeyId} and key = ${key}`,
  );
  return row ?? null;
}

/**
 * Stores the answer of the request holding the row (in the transaction of what it did). False
 * when it no longer holds it: its lock ran out and another request took the key over.
 */
export async function complete(
  tx: DbOrTx,
  held: { apiKeyId: string; key: string; lockedUntil: string },
  answer: { status: number; body: unknown },
): Promise<boolean> {
  const rows = await queryRows<{ key: string }>(
    tx,
    sql`update idempotency_keys
        set status = 'done', response_status = ${answer.status},
            response_body = ${JSON.stringify(answer.body)}::jsonb, locked_until = null
        where api_key_id = ${held.apiKeyId} and key = ${held.key} and status = 'in_flight'
          and locked_until = ${held.lockedUntil}::timestamptz
        returning key`,
  );
  return rows.length > 0;
}

/** Deletes the row its holder claimed (an error answer: nothing was done, the key is free). */
export async function release(
  db: DbOrTx,
  held: { apiKeyId: string; key: string; lockedUntil: string },
): Promise<void> {
  await db.execute(
    sql`delete from idempotency_keys
        where api_key_id = ${held.apiKeyId} and key = ${held.key} and status = 'in_flight'
          and locked_until = ${held.lockedUntil}::timestamptz`,
  );
}

/** Deletes the rows whose answers are no longer replayed (the hourly job). */
export async function deleteExpired(db: DbOrTx, now: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with d as (delete from idempotency_keys where expires_at <= ${now}::timestamptz
                   returning 1)
        select count(*)::int as n from d`,
  );
  return row?.n ?? 0;
}
