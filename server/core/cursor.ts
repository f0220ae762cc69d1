/**
 * Keyset cursors shared by every paged list (ledger, history, data API, admin lists).
 *
 * A cursor is an opaque base64url string of the last row's sort key: its timestamp as PostgreSQL
 * stores it (microseconds, UTC, e.g. `2026-01-02T03:04:05.123456Z`) and its id. The timestamp is
 * read as text in SQL (`cursorTimestampSql`), never through a JS Date, which keeps only
 * milliseconds: two rows in the same millisecond would otherwise compare equal and a page
 * boundary between them would skip or repeat one. The next page is then
 * `WHERE (ts, id) < ($ts::timestamptz, $id) ORDER BY ts DESC, id DESC`, served by an index on
 * (…, ts, id).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { badRequest } from './errors.ts';
import { msg, type ApiText } from './api-messages.ts';
import { isUuid } from './uuid.ts';

/** The last row of a page: where the next page starts (exclusive). */
export interface CursorKey {
  /** UTC timestamp with up to microsecond precision, `YYYY-MM-DDTHH:MM:SS[.ffffff]Z`. */
  ts: string;
  /** The row's id (uuid or text key), the tie-breaker within one timestamp. */
  id: string;
}

/** The to_char pattern that writes a timestamptz as the cursor's text (always UTC, microseconds). */
export const CURSOR_TIMESTAMP_FORMAT = 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"';

/** Offsets up to this many rows stay served by page/offset; deeper pages must use a cursor. */
export const MAX_OFFSET = 1000;

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;
const PRINTABLE_ID = /^[A-Za-z0-9_.:@-]{1,200}$/;
const SEPARATOR = '|';
const MAX_CURSOR_LENGTH = 512;

/** SQL for a timestamptz column as cursor text; select it alongside the row for `encodeCursor`. */
export function cursorTimestampSql(column: AnyPgColumn | SQL): SQL<string> {
  return sql<string>`to_char(${column} at time zone 'UTC', ${sql.raw(`'${CURSOR_TIMESTAMP_FORMAT}'`)})`;
}

/** The opaque cursor for the row a page ended on. */
export function encodeCursor(key: CursorKey): string {
  if (!TIMESTAMP.test(key.ts)) {
    // Our own fault (a Date's ISO string or a local-time text slipped in), not the client's.
    throw new Error(`Cursor timestamp must be UTC text with microseconds, got '${key.ts}'.`);
  }
  if (!key.id || key.id.includes(SEPARATOR)) throw new Error(`Cursor id is invalid: '${key.id}'.`);
  return Buffer.from(`${key.ts}${SEPARATOR}${key.id}`, 'utf8').toString('base64url');
}

/**
 * Parses a client's `cursor`; a string this module did not produce is a 400 with a way out.
 * `idKind` 'uuid' (the default: users, ledger, tasks) also checks the id is a uuid, so a forged
 * cursor cannot reach PostgreSQL's uuid cast and turn into a 500.
 */
export function decodeCursor(cursor: string, idKind: 'uuid' | 'text' = 'uuid'): CursorKey {
  if (!cursor || cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) {
    throw badRequest(msg('cursor.malformed'), 'INVALID_CURSOR');
  }
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const at = text.indexOf(SEPARATOR);
  const ts = at > 0 ? text.slice(0, at) : '';
  const id = at > 0 ? text.slice(at + 1) : '';
  const idOk = idKind === 'uuid' ? isUuid(id) : PRINTABLE_ID.test(id);
  if (!TIMESTAMP.test(ts) || !idOk || !validDate(ts)) {
    throw badRequest(msg('cursor.malformed'), 'INVALID_CURSOR');
  }
  return { ts, id };
}

/**
 * The strict tuple comparison that starts the page after `key` in (ts desc, id desc) order:
 * rows sharing the timestamp are split by id, so none is skipped or repeated. Written as a row
 * comparison so PostgreSQL uses it as an index condition on (…, ts, id).
 */
export function keysetBefore(ts: AnyPgColumn | SQL, id: AnyPgColumn | SQL, key: CursorKey): SQL {
  return sql`(${ts}, ${id}) < (${key.ts}::timestamptz, ${key.id})`;
}

/**
 * `next_cursor` and `has_more` for a page fetched with `limit + 1` rows: the extra row only says
 * there is more; it is dropped from the page. `keyOf` reads the sort key of a row.
 */
export function keysetPage<T>(
  rows: T[],
  limit: number,
  keyOf: (row: T) => CursorKey,
): { rows: T[]; next_cursor: string | null; has_more: boolean } {
  const has_more = rows.length > limit;
  const page = has_more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return {
    rows: page,
    next_cursor: has_more && last ? encodeCursor(keyOf(last)) : null,
    has_more,
  };
}

/**
 * Refuses an offset past `MAX_OFFSET`: such pages are a scan of every skipped row. `hint` is
 * appended to the message (e.g. which order cursor pages follow).
 */
export function assertShallowOffset(offset: number, hint?: ApiText): void {
  if (offset > MAX_OFFSET) {
    const max = MAX_OFFSET.toLocaleString('en-US');
    throw badRequest(
      hint
        ? msg('cursor.offset_too_deep_hint', { max, hint })
        : msg('cursor.offset_too_deep', { max }),
      'OFFSET_TOO_DEEP',
    );
  }
}

/**
 * A page's `total` without counting a large set: the caller counts at most `totalCountLimit`
 * rows (`select count(*) from (select 1 … limit n)`), which covers every row an offset page can
 * reach. Past that the total is that bound and `total_exact` is false ("1,010+").
 */
export function totalCountLimit(limit: number, max = MAX_OFFSET): number {
  return max + limit + 1;
}

/** The `total` and `total_exact` of a count taken with `totalCountLimit`. */
export function boundedTotal(
  counted: number,
  limit: number,
  max = MAX_OFFSET,
): { total: number; total_exact: boolean } {
  const bound = totalCountLimit(limit, max) - 1;
  return counted > bound
    ? { total: bound, total_exact: false }
    : { total: counted, total_exact: true };
}

function validDate(ts: string): boolean {
  // Month 13 or day 32 pass the pattern; PostgreSQL would then fail the cast with a 500.
  const ms = Date.parse(ts.replace(/(\.\d{3})\d*Z$/, '$1Z'));
  if (Number.isNaN(ms)) return false;
  return new Date(ms).toISOString().slice(0, 19) === ts.slice(0, 19);
}
