/** Credit balance schemas (spec 3 "Credit balance response"); the site's types: shared/api/credits.ts. */
import { Type, type Static } from 'typebox';
import type * as api from '../../shared/api/credits.ts';
import { PublicUser } from './auth.ts';
import { KeysetFields, Ok, schemaFor } from './common.ts';

// The paged lists' shared fields live in common.ts; kept here too for importers of credits.ts.
export const CreditTransaction = schemaFor<api.CreditTransaction>()(
  Type.Object({
    id: Type.String(),
    amount: Type.Integer(),
    balance_after: Type.Integer(),
    source_type: Type.String(),
    source_id: Type.String(),
    description: Type.String(),
    created_at: Type.String(),
  }),
);
export type CreditTransaction = api.CreditTransaction;

export const BalanceResponse = schemaFor<api.BalanceResponse>()(
  Ok(
    Type.Object({
      total_credits: Type.Integer(),
      transactions: Type.Array(CreditTransaction),
      user: PublicUser,
    }),
  ),
);
export type BalanceResponse = api.BalanceResponse;

/**
 * Spec 7: `limit` (default 10) and `offset` (default 0). `cursor` (a previous page's
 * `next_cursor`) fetches the next page in constant time; offsets past 1,000 rows must use it.
 */
export const TransactionsQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
    offset: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
  },
  { additionalProperties: false },
);
export type TransactionsQuery = Static<typeof TransactionsQuery>;

/**
 * An offset page carries `total` (exact up to the rows offsets can reach, 1,000 + a page; past
 * that the bound, with `total_exact` false); a cursor page carries neither total nor offset.
 */
export const TransactionsResponse = Ok(
  Type.Object({
    transactions: Type.Array(CreditTransaction),
    total: Type.Optional(Type.Integer()),
    total_exact: Type.Optional(Type.Boolean()),
    limit: Type.Integer(),
    offset: Type.Optional(Type.Integer()),
    ...KeysetFields,
  }),
);
export type TransactionsResponse = Static<typeof TransactionsResponse>;

/** Spec 3 "Credit transaction payload" (admin add/deduct). */
export const CreditChangeBody = Type.Object(
  {
    userId: Type.String({ format: 'uuid' }),
    amount: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
    sourceType: Type.String({ minLength: 1, maxLength: 50, pattern: '^[a-z0-9_:-]+$' }),
    sourceId: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.String({ maxLength: 500, default: '' }),
  },
  { additionalProperties: false },
);
export type CreditChangeBody = Static<typeof CreditChangeBody>;

export const CreditChangeResponse = Ok(
  Type.Object({
    transaction: CreditTransaction,
    balance: Type.Integer(),
    duplicate: Type.Boolean(),
  }),
);

export const ValidateResponse = Ok(
  Type.Object({
    userId: Type.String(),
    balance: Type.Integer(),
    ledgerSum: Type.Integer(),
    valid: Type.Boolean(),
  }),
);

export const UserIdParams = Type.Object({ userId: Type.String({ format: 'uuid' }) });
