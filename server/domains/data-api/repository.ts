/**
 * SQL of the data API. Every statement is built from policy identifiers and bind parameters
 * (query-sql.ts); every function takes `db | tx` first.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { CursorKey } from '../../core/cursor.ts';
import { queryRows, type DbOrTx } from '../../core/db.ts';
import type { DataRow } from '../../contracts/data-api.ts';
import type { RowScope, TablePolicy } from './policies.ts';
import type { Condition } from './query.ts';
import {
  assignmentsSql,
  CURSOR_ID,
  CURSOR_TS,
  cursorKeySql,
  keysetSql,
  orderSql,
  projectionSql,
  tableSql,
  whereSql,
} from './query-sql.ts';

/** The rows an operation may touch: the policy's row filter ANDed with the caller's where. */
export interface Scope {
  table: string;
  policy: TablePolicy;
  rows: RowScope;
  userId: string | null;
  conditions: Condition[];
}

const filterOf = (s: Scope) => whereSql(s.policy, s.rows, s.userId, s.conditions);

export interface SelectPage {
  columns: readonly string[];
  orderBy: string;
  ascending: boolean;
  limit: number;
  offset: number;
  /** Start after this row of the same order (a cursor's key); only for a timestamp order. */
  after?: CursorKey;
  /** Also read each row's sort key, for the next page's cursor. */
  withKeys: boolean;
}

/** The SELECT of a page, ordered by the table's real column (an index on it serves the order). */
export function selectRowsSql(scope: Scope, page: SelectPage): SQL {
  const { table } = scope;
  const keyColumns = page.withKeys ? sql`, ${cursorKeySql(table, page.orderBy)}` : sql``;
  const after = page.after
    ? sql` and ${keysetSql(table, page.orderBy, page.ascending, page.after)}`
    : sql``;
  return sql`select ${projectionSql(scope.policy, page.columns)}${keyColumns}
      from ${tableSql(table)}
      where ${filterOf(scope)}${after}
      order by ${orderSql(table, page.orderBy, page.ascending)}
      limit ${page.limit} offset ${page.offset}`;
}

/** A page of rows; `keys[i]` is the sort key of `rows[i]` (when asked `withKeys`). */
export async function selectRows(
  db: DbOrTx,
  scope: Scope,
  page: SelectPage,
): Promise<{ rows: DataRow[]; keys: CursorKey[] }> {
  const found = await queryRows<DataRow>(db, selectRowsSql(scope, page));
  const keys: CursorKey[] = [];
  const rows = found.map(({ [CURSOR_TS]: ts, [CURSOR_ID]: id, ...row }) => {
    if (page.withKeys) keys.push({ ts: String(ts), id: String(id) });
    return row;
  });
  return { rows, keys };
}

/** Counts the rows in scope, no further than `upTo` (never a scan of a large set). */
export const countRowsSql = (scope: Scope, upTo: number): SQL =>
  sql`select count(*)::int as n
      from (select 1 from ${tableSql(scope.table)} where ${filterOf(scope)} limit ${upTo}) t`;

/** How many rows are in scope, counting no further than `upTo`. */
export async function countRows(db: DbOrTx, scope: Scope, upTo: number): Promise<number> {
  const rows = await queryRows<{ n: number }>(db, countRowsSql(scope, upTo));
  return Number(rows[0]?.n ?? 0);
}

/** Ids of the rows in scope, at most `limit` (callers ask one more than they accept). */
export async function matchingIds(db: DbOrTx, scope: Scope, limit: number): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select ${sql.identifier('id')} as id from ${tableSql(scope.table)}
        where ${filterOf(scope)} order by ${orderSql(scope.table, 'id', true)} limit ${limit}`,
  );
  return rows.map((r) => r.id);
}

export async function selectByIds(
  db: DbOrTx,
  scope: Pick<Scope, 'table' | 'policy'>,
  ids: readonly string[],
  columns: readonly string[],
): Promise<DataRow[]> {
  if (ids.length === 0 || columns.length === 0) return [];
  return queryRows<DataRow>(
    db,
    sql`select ${projectionSql(scope.policy, columns)} from ${tableSql(scope.table)}
        where ${sql.identifier('id')} in (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})
        order by ${orderSql(scope.table, scope.policy.defaultOrder, false)}`,
  );
}

/** One UPDATE of the rows in scope; returns them as the caller may read them. */
export async function updateRows(
  db: DbOrTx,
  scope: Scope,
  data: Record<string, unknown>,
  columns: readonly string[],
): Promise<DataRow[]> {
  const touch = scope.policy.touches
    ? sql`, ${sql.identifier(scope.policy.touches)} = now()`
    : sql``;
  const returning = columns.length
    ? sql` returning ${projectionSql(scope.policy, columns)}`
    : sql``;
  return queryRows<DataRow>(
    db,
    sql`update ${tableSql(scope.table)} set ${assignmentsSql(scope.policy, data)}${touch}
        where ${filterOf(scope)}${returning}`,
  );
}

export interface CreditTotals {
  balance: number;
  totalGranted: number;
  totalSpent: number;
  refunds: number;
  transactionCount: number;
  lastTransactionAt: string | null;
}

/** A user's balance and ledger totals in one statement; null when the user does not exist. */
export async function creditTotals(db: DbOrTx, userId: string): Promise<CreditTotals | null> {
  const rows = await queryRows<{
    balance: number;
    total_granted: string | number;
    total_spent: string | number;
    refunds: string | number;
    transaction_count: number;
    last_transaction_at: string | null;
  }>(
    db,
    sql`select u.credits as balance,
          coalesce(sum(t.amount) filter (where t.amount > 0 and t.source_type <> 'refund'), 0)::int8 as total_granted,
          coalesce(-sum(t.amount) filter (where t.amount < 0), 0)::int8 as total_spent,
          coalesce(sum(t.amount) filter (where t.amount > 0 and t.source_type = 'refund'), 0)::int8 as refunds,
          count(t.id)::int as transaction_count,
          to_char(max(t.created_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_transaction_at
        from users u
        left join credit_transactions t on t.user_id = u.id
        where u.id = ${userId}::uuid and u.provider <> 'admin'
        group by u.id, u.credits`,
  );
  const row = rows[0];
  if (!row) return null;
  return {
    balance: Number(row.balance),
    totalGranted: Number(row.total_granted),
    totalSpent: Number(row.total_spent),
    refunds: Number(row.refunds),
    transactionCount: Number(row.transaction_count),
    lastTransactionAt: row.last_transaction_at,
  };
}
