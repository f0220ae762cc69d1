/**
 * How every admin list reads one page (issue 19): newest first by (time, id), `limit` rows
 * after a keyset cursor or at a shallow offset, one extra row to learn whether a next page
 * exists, and on offset pages a total that counts no further than the offsets can reach. Each
 * list has an index on (time, id), so a page is an index range scan and never a sort of the
 * table, and no request counts a whole table. The cursor format is core/cursor.ts's.
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  assertShallowOffset,
  boundedTotal,
  decodeCursor,
  keysetBefore,
  keysetPage,
  totalCountLimit,
  type CursorKey,
} from '../../core/cursor.ts';
import { queryRows, type DbOrTx } from '../../core/db.ts';
import { badRequest } from '../../core/errors.ts';
import type { ListPage } from '../../contracts/admin-lists.ts';
import { msg } from '../../core/api-messages.ts';

/** A list request as the routes validated it. */
export interface PageRequest {
  limit: number;
  offset: number;
  cursor?: string | undefined;
}

/** Where a page starts: after a cursor's row, or `offset` rows in (shallow pages only). */
export interface PageStart {
  limit: number;
  offset: number;
  after: CursorKey | null;
}

/**
 * Reads `cursor` / `offset` as a start. `idKind` is the list's id column type (a uuid, or text
 * such as a Stripe event id), so a forged cursor is a 400 and never a cast error.
 */
export function pageStart(request: PageRequest, idKind: 'uuid' | 'text' = 'uuid'): PageStart {
  const { limit, offset, cursor } = request;
  if (cursor !== undefined) {
    if (offset > 0) {
      throw badRequest(msg('admin.cursor_with_offset'), 'CURSOR_WITH_OFFSET');
    }
    return { limit, offset: 0, after: decodeCursor(cursor, idKind) };
  }
  assertShallowOffset(offset);
  return { limit, offset, after: null };
}

/** One admin list's SQL: what to select and from where, how it is filtered and ordered. */
export interface ListSource {
  /** `select …, <sort_ts> as sort_ts from …` (joins included), without where or order. */
  select: SQL;
  /** The rows' filters, and-ed; the count uses them too. */
  where: SQL[];
  /** The time column and the id column the list is ordered by (both descending). */
  ts: SQL;
  id: SQL;
  /** `<table> <alias>` the filters name, for the bounded count (no joins needed there). */
  countFrom: SQL;
  /**
   * A search: the rows that match, as the body of a materialized CTE `matches` that `select`
   * reads from. The page and its bounded count then come from one statement: the index behind
   * the search is read once, not once for the rows and again for the count.
   */
  matches?: SQL;
}

/** A row as a ListSource selects it: its id and its time as cursor text (cursorTimestampSql). */
export interface KeyedRow {
  id: string;
  sort_ts: string;
}

export type Page<T> = ListPage & { rows: T[] };

const and = (conditions: SQL[]) =>
  conditions.length ? sql.join(conditions, sql` and `) : sql`true`;

/**
 * The two statements behind a page (exported so a test can EXPLAIN them): its rows, `limit + 1`
 * of them, and on an offset page the count, which stops at the rows offsets can reach. A cursor
 * page is somewhere deep in the list: its total is the first page's business.
 */
export function pageQueries(
  source: ListSource,
  start: PageStart,
): { rows: SQL; count: SQL | null } {
  const { limit, offset, after } = start;
  const conditions = after
    ? [...source.where, keysetBefore(source.ts, source.id, after)]
    : source.where;
  const page = sql`${source.select} where ${and(conditions)}
      order by ${source.ts} desc, ${source.id} desc limit ${limit + 1} offset ${offset}`;
  if (source.matches) {
    const total = after
      ? sql`null::int`
      : sql`(select count(*)::int from (select 1 from matches limit ${totalCountLimit(limit)}) c)`;
    return {
      rows: sql`with matches as materialized (${source.matches})
        select page.*, ${total} as total_count from (${page}) page`,
      count: null,
    };
  }
  return {
    rows: page,
    count: after
      ? null
      : sql`select count(*)::int as n from (select 1 from ${source.countFrom}
            where ${and(source.where)} limit ${totalCountLimit(limit)}) counted`,
  };
}

/** One page of `source` from `start`: its rows (still with sort_ts), cursor, and bounded total. */
export async function readPage<T extends KeyedRow>(
  db: DbOrTx,
  source: ListSource,
  start: PageStart,
): Promise<Page<T>> {
  const queries = pageQueries(source, start);
  const [found, counted] = await Promise.all([
    queryRows<T & { total_count?: number | null }>(db, queries.rows),
    queries.count ? queryRows<{ n: number }>(db, queries.count) : Promise.resolve(null),
  ]);
  // A search's count came with its rows; a page past its last match has no row to carry it.
  let total: number | null = counted ? (counted[0]?.n ?? 0) : null;
  if (source.matches && !start.after) {
    total = found[0]?.total_count ?? (start.offset === 0 ? 0 : null);
    if (total === null) {
      const [row] = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from (select 1 from ${source.countFrom}
            where ${and(source.where)} limit ${totalCountLimit(start.limit)}) counted`,
      );
      total = row?.n ?? 0;
    }
  }
  const rows = found.map(({ total_count: _, ...row }) => row as unknown as T);
  const page = keysetPage(rows, start.limit, (row) => ({ ts: row.sort_ts, id: row.id }));
  return {
    rows: page.rows,
    next_cursor: page.next_cursor,
    has_more: page.has_more,
    ...(total !== null ? boundedTotal(total, start.limit) : {}),
  };
}

/** The page with its rows shaped for the API under `key` (e.g. `users`). */
export function pageAs<K extends string, T, R>(
  key: K,
  page: Page<T>,
  toApi: (row: T) => R,
): ListPage & Record<K, R[]> {
  const { rows, ...fields } = page;
  return { ...fields, [key]: rows.map(toApi) } as ListPage & Record<K, R[]>;
}
