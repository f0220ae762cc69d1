/**
 * The generic data API (spec 7 "GET/POST/PUT/DELETE /api/db/{table}", "POST /api/rpc/{name}"):
 * request and answer shapes and the typed RPC arguments. The `where` grammar's operators and
 * limits are in shared/data-api.ts.
 */
import { Type, type Static } from 'typebox';
import {
  DATA_API_DEFAULT_LIMIT,
  DATA_API_MAX_LIMIT,
  WHERE_MAX_IN_VALUES,
  WHERE_MAX_LIKE_LENGTH,
} from '../../shared/data-api.ts';
import { Ok } from './common.ts';

const WHERE_HELP =
  'JSON object; keys are columns, combined with AND. A value means equality ({"status":"completed"}); ' +
  'an object applies operators ({"progress":{"gte":50},"status":{"in":["pending","processing"]}}): ' +
  `eq, neq, gt, gte, lt, lte, in (up to ${WHERE_MAX_IN_VALUES} values), like (pattern up to ${WHERE_MAX_LIKE_LENGTH} characters, % and _ wildcards). ` +
  'null with eq or neq tests for an empty value. Your own-rows or published-rows filter always applies as well.';

export const DataTableParams = Type.Object({
  table: Type.String({ minLength: 1, maxLength: 100, description: 'An exposed table' }),
});

export const DataSelectQuery = Type.Object(
  {
    columns: Type.Optional(
      Type.String({
        maxLength: 1000,
        description:
          'Comma-separated columns to return (default: every column you may read; * too)',
      }),
    ),
    where: Type.Optional(Type.String({ maxLength: 8000, description: WHERE_HELP })),
    orderBy: Type.Optional(Type.String({ maxLength: 100, description: 'A column to sort by' })),
    ascending: Type.Optional(
      Type.Boolean({
        description: 'Sort direction (default: true with orderBy, newest first without)',
      }),
    ),
    offset: Type.Integer({
      minimum: 0,
      maximum: 1_000_000,
      default: 0,
      description: 'Rows to skip, up to 1,000; deeper pages use cursor',
    }),
    limit: Type.Integer({
      minimum: 1,
      maximum: DATA_API_MAX_LIMIT,
      default: DATA_API_DEFAULT_LIMIT,
    }),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 512,
        description:
          "The previous page's next_cursor: the next page in constant time (default order only; same columns, where and ascending)",
      }),
    ),
  },
  { additionalProperties: false },
);
export type DataSelectQuery = Static<typeof DataSelectQuery>;

/** POST body: the row itself, `{ column: value }` (not wrapped in `data`). */
export const DataInsertBody = Type.Record(Type.String(), Type.Unknown(), {
  description: 'The new row: { column: value } for the columns you may set',
});

export const DataUpdateBody = Type.Object(
  {
    data: Type.Record(Type.String(), Type.Unknown(), {
      description: 'The changes: { column: value } for the columns you may set',
    }),
    where: Type.Unknown({ description: `Which rows (required, non-empty). ${WHERE_HELP}` }),
  },
  { additionalProperties: false },
);
export type DataUpdateBody = Static<typeof DataUpdateBody>;

export const DataDeleteBody = Type.Object(
  { where: Type.Unknown({ description: `Which rows (required, non-empty). ${WHERE_HELP}` }) },
  { additionalProperties: false },
);
export type DataDeleteBody = Static<typeof DataDeleteBody>;

/** A row as the data API returns it: the columns you asked for, timestamps as ISO 8601 text. */
export const DataRow = Type.Record(Type.String(), Type.Unknown());
export type DataRow = Static<typeof DataRow>;

export const DataRowsResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(DataRow),
  /**
   * Offset pages of a select: how many rows match, exact up to the rows offsets reach (1,000 +
   * a page); past that the bound, with `count_exact` false. Cursor pages carry no count.
   */
  count: Type.Optional(Type.Integer()),
  count_exact: Type.Optional(Type.Boolean()),
  /** Selects in the default (time) order: the next page's `cursor`, null on the last page. */
  next_cursor: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  /** Selects: whether rows follow this page. */
  has_more: Type.Optional(Type.Boolean()),
});
export type DataRowsResponse = Static<typeof DataRowsResponse>;

export const RpcParams = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, description: 'An allowlisted function' }),
});

/** `user_credit_summary` arguments: an administrator may name another user. */
export const UserCreditSummaryArgs = Type.Object(
  { user_id: Type.Optional(Type.String({ format: 'uuid' })) },
  { additionalProperties: false },
);
export type UserCreditSummaryArgs = Static<typeof UserCreditSummaryArgs>;

/** A user's credits at a glance: balance = total_granted + refunds - total_spent. */
export const UserCreditSummary = Type.Object({
  user_id: Type.String(),
  balance: Type.Integer(),
  /** Credits added by purchases, subscriptions and grants (not refunds of failed videos). */
  total_granted: Type.Integer(),
  /** Credits that left the balance: videos, deductions, purchases refunded and taken back. */
  total_spent: Type.Integer(),
  /** Credits given back for failed videos. */
  refunds: Type.Integer(),
  transaction_count: Type.Integer(),
  last_transaction_at: Type.Union([Type.String(), Type.Null()]),
});
export type UserCreditSummary = Static<typeof UserCreditSummary>;

/** `increment_post_views` arguments: exactly one of slug or post_id, of a published post. */
export const IncrementPostViewsArgs = Type.Union([
  Type.Object(
    { slug: Type.String({ minLength: 1, maxLength: 200 }) },
    { additionalProperties: false },
  ),
  Type.Object({ post_id: Type.String({ format: 'uuid' }) }, { additionalProperties: false }),
]);
export type IncrementPostViewsArgs = Static<typeof IncrementPostViewsArgs>;

export const PostViews = Type.Object({ view_count: Type.Integer() });
export type PostViews = Static<typeof PostViews>;

export const RpcBody = Type.Record(Type.String(), Type.Unknown(), {
  description: "The function's arguments as a JSON object (may be omitted when it takes none)",
});

export const RpcResponse = Ok(Type.Union([UserCreditSummary, PostViews]));
export type RpcResponse = Static<typeof RpcResponse>;
