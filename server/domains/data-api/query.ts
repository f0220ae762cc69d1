/**
 * The data API's query language: `columns`, `where`, `orderBy` checked against what a policy
 * lets the caller see, values typed per column, and turned into parameterized SQL. Identifiers
 * come only from the policy; every value travels as a bind parameter with an explicit cast.
 */
import { sql, type SQL } from 'drizzle-orm';
import { badRequest, forbidden } from '../../core/errors.ts';
import {
  WHERE_MAX_IN_VALUES,
  WHERE_MAX_LIKE_LENGTH,
  WHERE_OPERATORS,
  type WhereOperator,
} from '../../contracts/data-api.ts';
import type { ColumnSpec, ColumnType, RowScope, TablePolicy } from './policies.ts';

export interface Condition {
  column: string;
  op: WhereOperator;
  /** Typed value; null only with eq / neq; an array only with in. */
  value: unknown;
}

/** More keys than this in one where is not a query a person writes. */
const MAX_WHERE_COLUMNS = 20;
const MAX_COLUMNS = 50;
/** Equality values longer than this match nothing useful and only cost work. */
const MAX_TEXT_VALUE = 2000;
const INT_MIN = -2_147_483_648;
const INT_MAX = 2_147_483_647;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMESTAMP_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** An ISO 8601 date or time that names a real calendar moment (no 30 February, no 25:00). */
function parseTimestamp(value: string): string | null {
  const m = TIMESTAMP_RE.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((p) => Number(p ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (year < 1 || month < 1 || month > 12 || day < 1) return null;
  // Day 0 of the next month is the last day of this one.
  if (new Date(Date.UTC(year, month, 0)).getUTCDate() < day) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  // A time without a zone is UTC (as the answers are); JavaScript alone would read it as local.
  const [, , , , hh, mm, ss, fraction, zone] = m;
  const time = hh ? `T${hh}:${mm}:${ss ?? '00'}${(fraction ?? '').slice(0, 4)}` : 'T00:00:00';
  const offset = !zone || zone === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  const date = new Date(`${m[1]}-${m[2]}-${m[3]}${time}${offset}`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

const operators = new Set<string>(WHERE_OPERATORS);
/** Casts are chosen from this fixed table by column type, never from input. */
const CASTS: Record<Exclude<ColumnType, 'text[]'>, string> = {
  uuid: 'uuid',
  int: 'int4',
  text: 'text',
  timestamp: 'timestamptz',
  boolean: 'boolean',
};
const COMPARABLE = new Set<ColumnType>(['int', 'text', 'timestamp']);
const TYPE_NAMES: Record<ColumnType, string> = {
  uuid: 'a UUID',
  int: 'a whole number',
  text: 'text',
  timestamp: 'an ISO 8601 date or time such as "2025-01-31T12:00:00Z"',
  boolean: 'true or false',
  'text[]': 'a list of text',
};

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const show = (v: unknown): string => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
};

const list = (names: Iterable<string>) => [...names].join(', ') || '(none)';

function specOf(policy: TablePolicy, column: string): ColumnSpec {
  // Callers only pass names already checked against the policy's lists.
  const spec = Object.hasOwn(policy.columns, column) ? policy.columns[column] : undefined;
  if (!spec) throw new Error(`policy has no column ${column}`);
  return spec;
}

/** `columns=a,b` → checked names; empty or `*` → every column the caller may read. */
export function parseColumns(raw: string | undefined, visible: readonly string[]): string[] {
  const asked = (raw ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  if (asked.length === 0 || (asked.length === 1 && asked[0] === '*')) return [...visible];
  if (asked.length > MAX_COLUMNS) {
    throw badRequest(`Ask for at most ${MAX_COLUMNS} columns.`, 'TOO_MANY_COLUMNS');
  }
  const allowed = new Set(visible);
  for (const name of asked) {
    if (!allowed.has(name)) {
      throw badRequest(
        `Unknown column '${name}' in columns. Columns you can read: ${list(visible)}.`,
        'UNKNOWN_COLUMN',
      );
    }
  }
  return [...new Set(asked)];
}

/** `orderBy` → a checked, sortable column. */
export function parseOrderBy(
  raw: string | undefined,
  policy: TablePolicy,
  visible: readonly string[],
): string {
  if (raw === undefined || raw === '') return policy.defaultOrder;
  const sortable = visible.filter((c) => specOf(policy, c).type !== 'text[]');
  if (!sortable.includes(raw)) {
    throw badRequest(
      `Unknown column '${raw}' in orderBy. Columns you can sort by: ${list(sortable)}.`,
      'UNKNOWN_COLUMN',
    );
  }
  return raw;
}

/** One value checked against its column's type; returns what is bound as the parameter. */
function typedValue(column: string, spec: ColumnSpec, value: unknown, where: string): unknown {
  const wrong = () =>
    badRequest(
      `Invalid value ${show(value)} for '${column}' in ${where}: expected ${TYPE_NAMES[spec.type]}.`,
      'INVALID_VALUE',
    );
  switch (spec.type) {
    case 'uuid':
      if (typeof value !== 'string' || !UUID_RE.test(value)) throw wrong();
      return value.toLowerCase();
    case 'int':
      if (typeof value !== 'number' || !Number.isInteger(value)) throw wrong();
      if (value < INT_MIN || value > INT_MAX) {
        throw badRequest(
          `The value ${value} for '${column}' in ${where} is out of range (${INT_MIN} to ${INT_MAX}).`,
          'INVALID_VALUE',
        );
      }
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw wrong();
      return value;
    case 'timestamp': {
      const iso = typeof value === 'string' ? parseTimestamp(value) : null;
      if (!iso) throw wrong();
      return iso;
    }
    case 'text': {
      if (typeof value !== 'string') throw wrong();
      if (value.length > MAX_TEXT_VALUE) {
        throw badRequest(
          `The value for '${column}' in ${where} is longer than ${MAX_TEXT_VALUE} characters.`,
          'INVALID_VALUE',
        );
      }
      // PostgreSQL text cannot hold NUL; refuse it here rather than fail in the database.
      if (value.includes('\u0000')) {
        throw badRequest(`The value for '${column}' in ${where} contains a NUL character.`);
      }
      if (spec.values && !spec.values.includes(value)) {
        throw badRequest(
          `Invalid value ${show(value)} for '${column}' in ${where}: use one of ${spec.values.join(', ')}.`,
          'INVALID_VALUE',
        );
      }
      return value;
    }
    case 'text[]':
      throw badRequest(`'${column}' is a list and cannot be filtered on.`, 'NOT_FILTERABLE');
  }
}

function operatorCondition(
  column: string,
  spec: ColumnSpec,
  op: WhereOperator,
  value: unknown,
  implicit = false,
): Condition {
  const at = implicit ? `where.${column}` : `where.${column}.${op}`;
  if (spec.type === 'text[]') {
    throw badRequest(`'${column}' is a list and cannot be filtered on.`, 'NOT_FILTERABLE');
  }
  switch (op) {
    case 'eq':
    case 'neq':
      return { column, op, value: value === null ? null : typedValue(column, spec, value, at) };
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      if (!COMPARABLE.has(spec.type)) {
        throw badRequest(
          `'${op}' compares numbers, dates and text; '${column}' is ${TYPE_NAMES[spec.type]}. Use eq or neq.`,
          'INVALID_OPERATOR',
        );
      }
      return { column, op, value: typedValue(column, spec, value, at) };
    case 'in': {
      if (!Array.isArray(value) || value.length === 0 || value.length > WHERE_MAX_IN_VALUES) {
        throw badRequest(
          `'in' for '${column}' needs a list of 1 to ${WHERE_MAX_IN_VALUES} values.`,
          'INVALID_VALUE',
        );
      }
      return { column, op, value: [...new Set(value.map((v) => typedValue(column, spec, v, at)))] };
    }
    case 'like': {
      if (spec.type !== 'text' || spec.values) {
        throw badRequest(
          `'like' only applies to free text; '${column}' is not.`,
          'INVALID_OPERATOR',
        );
      }
      if (typeof value !== 'string' || value.length === 0 || value.length > WHERE_MAX_LIKE_LENGTH) {
        throw badRequest(
          `'like' for '${column}' needs a pattern of 1 to ${WHERE_MAX_LIKE_LENGTH} characters (% and _ are wildcards).`,
          'INVALID_VALUE',
        );
      }
      // A pattern ending in a lone backslash is an SQL error; say so instead.
      if (/(?:^|[^\\])(?:\\\\)*\\$/.test(value)) {
        throw badRequest(
          `The 'like' pattern for '${column}' ends with a lone backslash; write \\\\ for a backslash.`,
          'INVALID_VALUE',
        );
      }
      return { column, op, value: typedValue(column, spec, value, at) };
    }
  }
}

/**
 * Parses `where` (JSON text from a query string, or an object from a body) into conditions on
 * columns the caller may read. Unknown columns, operators and badly typed values are 400s with
 * a message that says what would work.
 */
export function parseWhere(
  raw: unknown,
  policy: TablePolicy,
  visible: readonly string[],
): Condition[] {
  if (raw === undefined || raw === null || raw === '') return [];
  let where: unknown = raw;
  if (typeof raw === 'string') {
    try {
      where = JSON.parse(raw);
    } catch {
      throw badRequest(
        'where is not valid JSON. Send an object such as {"status":"completed"}.',
        'INVALID_WHERE',
      );
    }
  }
  if (!isPlainObject(where)) {
    throw badRequest(
      'where must be a JSON object such as {"status":"completed"}, not a list or a single value.',
      'INVALID_WHERE',
    );
  }
  const entries = Object.entries(where);
  if (entries.length > MAX_WHERE_COLUMNS) {
    throw badRequest(`where names at most ${MAX_WHERE_COLUMNS} columns.`, 'INVALID_WHERE');
  }
  const filterable = visible.filter((c) => specOf(policy, c).type !== 'text[]');
  const allowed = new Set(filterable);
  const conditions: Condition[] = [];
  for (const [column, value] of entries) {
    if (!allowed.has(column)) {
      throw badRequest(
        `Unknown column '${column}' in where. Columns you can filter on: ${list(filterable)}.`,
        'UNKNOWN_COLUMN',
      );
    }
    const spec = specOf(policy, column);
    if (Array.isArray(value)) {
      throw badRequest(
        `where.${column} is a list; to match any of several values write {"${column}":{"in":[...]}}.`,
        'INVALID_WHERE',
      );
    }
    if (!isPlainObject(value)) {
      conditions.push(operatorCondition(column, spec, 'eq', value, true));
      continue;
    }
    const ops = Object.entries(value);
    if (ops.length === 0) {
      throw badRequest(
        `where.${column} has no operator. Use one of ${WHERE_OPERATORS.join(', ')}.`,
        'INVALID_WHERE',
      );
    }
    for (const [op, operand] of ops) {
      if (!operators.has(op)) {
        throw badRequest(
          `Unknown operator '${op}' for '${column}' in where. Operators: ${WHERE_OPERATORS.join(', ')}.`,
          'INVALID_OPERATOR',
        );
      }
      conditions.push(operatorCondition(column, spec, op as WhereOperator, operand));
    }
  }
  return conditions;
}

/**
 * The values of a write, checked: only columns the caller may set. A column they can read but
 * not set is a 403 (a permission, e.g. credits); anything else unknown is a 400.
 */
export function checkWriteColumns(
  data: Record<string, unknown>,
  settable: readonly string[],
  readable: readonly string[],
  policy: TablePolicy,
): void {
  const keys = Object.keys(data);
  if (keys.length === 0) {
    throw badRequest(`Nothing to write: send at least one of ${list(settable)}.`, 'EMPTY_WRITE');
  }
  for (const key of keys) {
    if (settable.includes(key)) continue;
    if (readable.includes(key)) {
      throw forbidden(
        `You cannot set '${key}' on ${policy.label} through this API. Columns you can set: ${list(settable)}.${policy.writeHint ? ` ${policy.writeHint}` : ''}`,
        'COLUMN_NOT_WRITABLE',
      );
    }
    throw badRequest(
      `Unknown column '${key}' in data. Columns you can set: ${list(settable)}.`,
      'UNKNOWN_COLUMN',
    );
  }
}

const ident = (name: string) => sql.identifier(name);

function param(spec: ColumnSpec, value: unknown): SQL {
  const cast = CASTS[spec.type as Exclude<ColumnType, 'text[]'>];
  return sql`${value}::${sql.raw(cast)}`;
}

function conditionSql(policy: TablePolicy, c: Condition): SQL {
  const col = ident(c.column);
  const spec = specOf(policy, c.column);
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
export function rowFilterSql(policy: TablePolicy, rows: RowScope, userId: string | null): SQL {
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
      specOf(policy, c).type === 'timestamp'
        ? sql`to_char(${ident(c)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ${ident(c)}`
        : ident(c),
    ),
    sql`, `,
  );
}

export function orderSql(column: string, ascending: boolean): SQL {
  const dir = sql.raw(ascending ? 'asc' : 'desc');
  return column === 'id'
    ? sql`${ident(column)} ${dir}`
    : sql`${ident(column)} ${dir}, ${ident('id')} ${dir}`;
}

/** A SET list for a write; values were checked by the policy's input schema. */
export function assignmentsSql(policy: TablePolicy, data: Record<string, unknown>): SQL {
  return sql.join(
    Object.entries(data).map(([c, v]) => {
      const spec = specOf(policy, c);
      return sql`${ident(c)} = ${v === null ? sql`null` : param(spec, v)}`;
    }),
    sql`, `,
  );
}

export const tableSql = (table: string) => ident(table);
