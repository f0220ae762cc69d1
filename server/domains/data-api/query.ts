/**
 * The data API's query language: `columns`, `where`, `orderBy` and the columns of a write,
 * checked against what a policy lets the caller see or set, into conditions with typed values
 * (./values.ts). A bad query is a 400 that says what would work. The SQL is built from the
 * result in ./query-sql.ts.
 */
import { badRequest, forbidden } from '../../core/errors.ts';
import {
  WHERE_MAX_IN_VALUES,
  WHERE_MAX_LIKE_LENGTH,
  WHERE_OPERATORS,
  type WhereOperator,
} from '../../../shared/data-api.ts';
import { columnSpec, type ColumnSpec, type ColumnType, type TablePolicy } from './policies.ts';
import { TYPE_NAMES, typedValue } from './values.ts';
import { type MessageValue, msg } from '../../core/api-messages.ts';

export interface Condition {
  column: string;
  op: WhereOperator;
  /** Typed value; null only with eq / neq; an array only with in. */
  value: unknown;
}

/** More keys than this in one where is not a query a person writes. */
const MAX_WHERE_COLUMNS = 20;
const MAX_COLUMNS = 50;
const operators = new Set<string>(WHERE_OPERATORS);
const COMPARABLE = new Set<ColumnType>(['int', 'text', 'timestamp']);

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const list = (names: Iterable<string>): MessageValue => [...names].join(', ') || msg('data.none');

/** `columns=a,b` → checked names; empty or `*` → every column the caller may read. */
export function parseColumns(raw: string | undefined, visible: readonly string[]): string[] {
  const asked = (raw ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  if (asked.length === 0 || (asked.length === 1 && asked[0] === '*')) return [...visible];
  if (asked.length > MAX_COLUMNS) {
    throw badRequest(msg('data.too_many_columns', { max: MAX_COLUMNS }), 'TOO_MANY_COLUMNS');
  }
  const allowed = new Set(visible);
  for (const name of asked) {
    if (!allowed.has(name)) {
      throw badRequest(
        msg('data.unknown_column_read', { column: name, columns: list(visible) }),
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
  const sortable = visible.filter((c) => columnSpec(policy, c).type !== 'text[]');
  if (!sortable.includes(raw)) {
    throw badRequest(
      msg('data.unknown_column_sort', { column: raw, columns: list(sortable) }),
      'UNKNOWN_COLUMN',
    );
  }
  return raw;
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
    throw badRequest(msg('data.not_filterable', { column }), 'NOT_FILTERABLE');
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
          msg('data.compare_types', { op, column, type: TYPE_NAMES[spec.type] }),
          'INVALID_OPERATOR',
        );
      }
      return { column, op, value: typedValue(column, spec, value, at) };
    case 'in': {
      if (!Array.isArray(value) || value.length === 0 || value.length > WHERE_MAX_IN_VALUES) {
        throw badRequest(
          msg('data.in_size', { column, max: WHERE_MAX_IN_VALUES }),
          'INVALID_VALUE',
        );
      }
      return { column, op, value: [...new Set(value.map((v) => typedValue(column, spec, v, at)))] };
    }
    case 'like': {
      if (spec.type !== 'text' || spec.values) {
        throw badRequest(msg('data.like_text_only', { column }), 'INVALID_OPERATOR');
      }
      if (typeof value !== 'string' || value.length === 0 || value.length > WHERE_MAX_LIKE_LENGTH) {
        throw badRequest(
          msg('data.like_length', { column, max: WHERE_MAX_LIKE_LENGTH }),
          'INVALID_VALUE',
        );
      }
      // A pattern ending in a lone backslash is an SQL error; say so instead.
      if (/(?:^|[^\\])(?:\\\\)*\\$/.test(value)) {
        throw badRequest(msg('data.like_backslash', { column }), 'INVALID_VALUE');
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
      throw badRequest(msg('data.where_not_json'), 'INVALID_WHERE');
    }
  }
  if (!isPlainObject(where)) {
    throw badRequest(msg('data.where_not_object'), 'INVALID_WHERE');
  }
  const entries = Object.entries(where);
  if (entries.length > MAX_WHERE_COLUMNS) {
    throw badRequest(msg('data.where_too_many', { max: MAX_WHERE_COLUMNS }), 'INVALID_WHERE');
  }
  const filterable = visible.filter((c) => columnSpec(policy, c).type !== 'text[]');
  const allowed = new Set(filterable);
  const conditions: Condition[] = [];
  for (const [column, value] of entries) {
    if (!allowed.has(column)) {
      throw badRequest(
        msg('data.unknown_column_where', { column, columns: list(filterable) }),
        'UNKNOWN_COLUMN',
      );
    }
    const spec = columnSpec(policy, column);
    if (Array.isArray(value)) {
      throw badRequest(msg('data.where_list', { column }), 'INVALID_WHERE');
    }
    if (!isPlainObject(value)) {
      conditions.push(operatorCondition(column, spec, 'eq', value, true));
      continue;
    }
    const ops = Object.entries(value);
    if (ops.length === 0) {
      throw badRequest(
        msg('data.where_no_operator', { column, operators: WHERE_OPERATORS.join(', ') }),
        'INVALID_WHERE',
      );
    }
    for (const [op, operand] of ops) {
      if (!operators.has(op)) {
        throw badRequest(
          msg('data.unknown_operator', { op, column, operators: WHERE_OPERATORS.join(', ') }),
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
    throw badRequest(msg('data.nothing_to_write', { columns: list(settable) }), 'EMPTY_WRITE');
  }
  for (const key of keys) {
    if (settable.includes(key)) continue;
    if (readable.includes(key)) {
      throw forbidden(
        policy.writeHint
          ? msg('data.column_not_writable_hint', {
              column: key,
              table: policy.label,
              columns: list(settable),
              hint: policy.writeHint,
            })
          : msg('data.column_not_writable', {
              column: key,
              table: policy.label,
              columns: list(settable),
            }),
        'COLUMN_NOT_WRITABLE',
      );
    }
    throw badRequest(
      msg('data.unknown_column_data', { column: key, columns: list(settable) }),
      'UNKNOWN_COLUMN',
    );
  }
}
