/**
 * Rows for the keyset-paging tests, written straight into the tables with chosen timestamps
 * (microseconds, as text) and chosen ids, so ties within one millisecond, or within one
 * microsecond, are exactly what the test says. Also the order the lists must come in, computed
 * here independently of the database: (time desc, id desc), ids compared as PostgreSQL compares
 * uuids (their lower-case hex text).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../server/core/db.ts';

/** A row to write: its id and its time as UTC text with microseconds. */
export interface KeyedRow {
  id: string;
  ts: string;
}

/** `count` rows at `ts`, random ids: a tie the id must break. */
export const sameTime = (ts: string, count: number): KeyedRow[] =>
  Array.from({ length: count }, () => ({ id: randomUUID(), ts }));

/** The order every list serves: newest first, the larger id first within one instant. */
export function newestFirst(rows: readonly KeyedRow[]): string[] {
  return [...rows]
    .sort((a, b) => (a.ts === b.ts ? (a.id < b.id ? 1 : -1) : a.ts < b.ts ? 1 : -1))
    .map((r) => r.id);
}

/** Ledger rows for `userId` (amount 1 each; these tests never check the balance). */
export async function insertLedgerRows(db: DbOrTx, userId: string, rows: readonly KeyedRow[]) {
  for (const row of rows) {
    await db.execute(sql`
      insert into credit_transactions
        (id, user_id, amount, balance_after, source_type, source_id, description, created_at)
      values (${row.id}::uuid, ${userId}::uuid, 1, 1, 'test', ${row.id}, 'paging test',
              ${row.ts}::timestamptz)`);
  }
}

/** Completed videos for `userId`, completed at the rows' times. */
export async function insertCompletedVideos(db: DbOrTx, userId: string, rows: readonly KeyedRow[]) {
  for (const row of rows) {
    await db.execute(sql`
      insert into video_tasks
        (id, user_id, status, progress, model, mode, prompt, provider, result_url,
         deadline_at, created_at, completed_at, credits_charged)
      values (${row.id}::uuid, ${userId}::uuid, 'completed', 100, 'veo3', 'text', 'paging test',
              'local', ${`/media/${row.id}.mp4`}, now(), ${row.ts}::timestamptz,
              ${row.ts}::timestamptz, 17)`);
  }
}
