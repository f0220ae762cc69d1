/**
 * The SQL of the data API's queries, from checked conditions (./query.ts): the row filter of a
 * scope ANDed with the caller's where, the select list, the order and a write's SET list.
 * Identifiers come only from the policy; every value travels as a bind parameter with an explicit
 * cast chosen by column type.
 */
import { sql, type SQL } from 'drizzle-orm';
import { cursorTimestampSql, type CursorKey } from '../../core/cursor.ts';
import {
  columnSpec,
  type ColumnSpec,
  type ColumnType,
  type RowScope,
  type TablePolicy,
} from './policies.ts';
import type { Condition } from './query.ts';

/** Casts are chosen from this fixed table by column type, never from input. */
const CASTS: Record<Exclude<ColumnType, 'text[]'>, string> = {
  uuid: 'uuid',
  int: 'int4',
  text: 'text',
  timestamp: 'timestamptz',
  boolean: 'boolean',
};

const ident = (name: string) => sql.identifier(name);

function param(spec: ColumnSpec, value: unknown): SQL {
  const cast = CASTS[spec.type as Exclude<ColumnType, 'text[]'>];
  return sql`${value}::${sql.raw(cast)}`;
}

function conditionSql(policy: TablePolicy, c: Condition): SQL {
  const col = ident(c.column);
  const spec = columnSpec(policy, c.column);
  switch (c.op) {
    case 'eq':
      return c.value === null ? sql`${col} is null` : sql`${col} = ${param(spec, c.value)}`;
    case 'neq':
      // "Not equal" also matches rows where the column is empty (null).
      return c.value === null
        ? sql`${col} is not null`
        : sql`${col} is distinct from ${param(spec, c.value)}`;
    case 'gt':
      return sql`${col} > ${param(spec, c.value)}`;
    case 'gte':
      return sql`${col} >= ${param(spec, c.value)}`;
    case 'lt':
      return sql`${col} < ${param(spec, c.value)}`;
    case 'lte':
      return sql`${col} <= ${param(spec, c.value)}`;
    case 'in':
      return sql`${col} in (${sql.join(
        (c.value as unknown[]).map((v) => param(spec, v)),
        sql`, `,
      )})`;
    case 'like':
      return sql`${col} like ${param(spec, c.value)}`;
  }
}

/** The row filter of a scope; the caller's where is ANDed to it and cannot widen it. */
function rowFilterSql(policy: TablePolicy, rows: RowScope, userId: string | null): SQL {
  switch (rows) {
    case 'all':
      return sql`true`;
    case 'published':
      return sql`${ident('status')} = ${'published'}::text`;
    case 'own':
      // An own-rows grant without a caller or an owner column matches nothing, never everything.
      if (!userId || !policy.owner) return sql`false`;
      return sql`${ident(policy.owner)} = ${userId}::uuid`;
  }
}

export function whereSql(
  policy: TablePolicy,
  rows: RowScope,
  userId: string | null,
  conditions: Condition[],
): SQL {
  const hidden = Object.entries(policy.hiddenRows ?? {}).map(
    ([column, value]) => sql`${ident(column)} is distinct from ${value}::text`,
  );
  const parts = [
    rowFilterSql(policy, rows, userId),
    ...hidden,
    ...conditions.map((c) => conditionSql(policy, c)),
  ];
  return sql.join(
    parts.map((p) => sql`(${p})`),
    sql` and `,
  );
}

/** Select list: timestamps as ISO 8601 UTC text so both drivers answer the same JSON. */
export function projectionSql(policy: TablePolicy, columns: readonly string[]): SQL {
  return sql.join(
    columns.map((c) =>
      columnSpec(policy, c).type === 'timestamp'
        ? sql`to_char(${ident(c)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ${ident(c)}`
        : ident(c),
    ),
    sql`, `,
  );
}

/**
 * ORDER BY the table's own columns, qualified: an unqualified name would resolve to the select
 * list's `to_char(…) as created_at` text (every row formatted, then sorted by millisecond text,
 * no index). `id` breaks ties so pages are stable.
 */
export function orderSql(table: string, column: string, ascending: boolean): SQL {
  const dir = sql.raw(ascending ? 'asc' : 'desc');
  const col = (name: string) => sql`${ident(table)}.${ident(name)}`;
  return column === 'id'
    ? sql`${col(column)} ${dir}`
    : sql`${col(column)} ${dir}, ${col('id')} ${dir}`;
}

/**
 * The rows after a cursor's key in (column, id) order: a strict row comparison, so rows sharing
 * a timestamp are split by id and none is skipped or repeated; an index on (…, column, id)
 * starts its scan there.
 */
export function keysetSql(table: string, column: string, ascending: boolean, key: CursorKey): SQL {
  const op = sql.raw(ascending ? '>' : '<');
  return sql`(${ident(table)}.${ident(column)}, ${ident(table)}.${ident('id')}) ${op} (${key.ts}::timestamptz, ${key.id}::uuid)`;
}

/** The sort key of each row as cursor text (hidden columns the service strips). */
export function cursorKeySql(table: string, column: string): SQL {
  const col = sql`${ident(table)}.${ident(column)}`;
  return sql`${cursorTimestampSql(col)} as ${ident(CURSOR_TS)}, ${ident(table)}.${ident('id')}::text as ${ident(CURSOR_ID)}`;
}

/** Names of the hidden sort-key columns; no policy column starts with `__`. */
export const CURSOR_TS = '__cursor_ts';
export const CURSOR_ID = '__cursor_id';

/** A SET list for a write; values were checked by the policy's input schema. */
export function assignmentsSql(policy: TablePolicy, data: Record<string, unknown>): SQL {
  return sql.join(
    Object.entries(data).map(([c, v]) => {
      const spec = columnSpec(policy, c);
      return sql`${ident(c)} = ${v === null ? sql`null` : param(spec, v)}`;
    }),
    sql`, `,
  );
}

export const tableSql = (table: string) => ident(table);
