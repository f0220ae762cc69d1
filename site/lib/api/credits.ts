/** The credits calls (spec 7 GET /api/credits/balance). */
import type { BalanceResponse } from '../../../shared/api/credits.ts';
import { api } from './http.ts';

/** The signed-in user's balance, recent ledger rows and the server's copy of the user. */
export async function getBalance(): Promise<BalanceResponse> {
  return api.get('/api/credits/balance').json<BalanceResponse>();
}
