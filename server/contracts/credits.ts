/** Credit balance shapes (spec 3 "Credit balance response"). */
import { Type, type Static } from 'typebox';
import { PublicUser } from './auth.ts';
import { Ok } from './common.ts';

export const CreditTransaction = Type.Object({
  id: Type.String(),
  amount: Type.Integer(),
  balance_after: Type.Integer(),
  source_type: Type.String(),
  source_id: Type.String(),
  description: Type.String(),
  created_at: Type.String(),
});
export type CreditTransaction = Static<typeof CreditTransaction>;

export const BalanceResponse = Ok(
  Type.Object({
    total_credits: Type.Integer(),
    transactions: Type.Array(CreditTransaction),
    user: PublicUser,
  }),
);
export type BalanceResponse = Static<typeof BalanceResponse>;

export const TransactionsQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
    offset: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
  },
  { additionalProperties: false },
);

export const TransactionsResponse = Ok(
  Type.Object({
    transactions: Type.Array(CreditTransaction),
    total: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
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
