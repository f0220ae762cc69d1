/**
 * Values in the data API's where: one value checked against its column's type (UUID, whole
 * number in int4 range, ISO 8601 time naming a real moment, text within limits and its fixed
 * values) and turned into what is bound as the SQL parameter. A bad value is a 400 that says
 * which type was expected.
 */
import { badRequest } from '../../core/errors.ts';
import type { ColumnSpec, ColumnType } from './policies.ts';
import { type ApiText, msg } from '../../core/api-messages.ts';

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

/** How a column type is named in messages. */
export const TYPE_NAMES: Record<ColumnType, ApiText> = {
  uuid: msg('data.type.uuid'),
  int: msg('data.type.int'),
  text: msg('data.type.text'),
  timestamp: msg('data.type.timestamp'),
  boolean: msg('data.type.boolean'),
  'text[]': msg('data.type.text_list'),
};

const show = (v: unknown): string => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
};

export /** One value checked against its column's type; returns what is bound as the parameter. */
function typedValue(column: string, spec: ColumnSpec, value: unknown, where: string): unknown {
  const wrong = () =>
    badRequest(
      msg('data.value.expected', {
        value: show(value),
        column,
        where,
        type: TYPE_NAMES[spec.type],
      }),
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
          msg('data.value.out_of_range', { value, column, where, min: INT_MIN, max: INT_MAX }),
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
          msg('data.value.too_long', { column, where, max: MAX_TEXT_VALUE }),
          'INVALID_VALUE',
        );
      }
      // PostgreSQL text cannot hold NUL; refuse it here rather than fail in the database.
      if (value.includes('\u0000')) {
        throw badRequest(msg('data.value.nul', { column, where }));
      }
      if (spec.values && !spec.values.includes(value)) {
        throw badRequest(
          msg('data.value.one_of', {
            value: show(value),
            column,
            where,
            allowed: spec.values.join(', '),
          }),
          'INVALID_VALUE',
        );
      }
      return value;
    }
    case 'text[]':
      throw badRequest(msg('data.not_filterable', { column }), 'NOT_FILTERABLE');
  }
}
