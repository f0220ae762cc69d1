/**
 * The generic data API's limits and `where` grammar (spec 7 "GET/POST/PUT/DELETE /api/db/{table}"):
 * plain values for any client; the request and answer schemas are in server/contracts/data-api.ts.
 */

export const DATA_API_DEFAULT_LIMIT = 20;
export const DATA_API_MAX_LIMIT = 100;
/** `{ col: { in: [...] } }` lists at most this many values. */
export const WHERE_MAX_IN_VALUES = 100;
/** `{ col: { like: '...' } }` patterns are at most this long. */
export const WHERE_MAX_LIKE_LENGTH = 100;
/** A PUT or DELETE that matches more posts than this changes nothing and asks for a narrower where. */
export const DATA_API_MAX_WRITE_ROWS = 100;

export const WHERE_OPERATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'like'] as const;
export type WhereOperator = (typeof WHERE_OPERATORS)[number];
