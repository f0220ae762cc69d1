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
