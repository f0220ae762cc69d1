/**
 * Credit balance shapes (spec 3 "Credit balance response") the site reads; the schemas are in
 * server/contracts/credits.ts.
 */
import type { PublicUser } from './auth.ts';
import type { Ok } from './common.ts';

/** One ledger row (credits in are positive, credits out negative). */
export type CreditTransaction = {
  id: string;
  amount: number;
  balance_after: number;
  source_type: string;
  source_id: string;
  description: string;
  created_at: string;
};

export type BalanceResponse = Ok<{
  total_credits: number;
  transactions: CreditTransaction[];
  user: PublicUser;
}>;
