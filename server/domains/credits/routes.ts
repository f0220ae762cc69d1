/** HTTP for credits. The balance is the user's ledger total (spec 3 "Credit balance response"). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { currentUser, requireUser } from '../../core/auth.ts';
import { ErrorResponse } from '../../contracts/common.ts';
import { BalanceResponse } from '../../contracts/credits.ts';
import { toPublicUser } from '../accounts/service.ts';

export async function creditsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/api/credits/balance',
    {
      preHandler: requireUser,
      schema: {
        tags: ['credits'],
        summary: "The signed-in user's credit balance and latest transactions",
        response: { 200: BalanceResponse, 401: ErrorResponse, 403: ErrorResponse },
      },
    },
    async (request) => {
      const user = currentUser(request);
      // The ledger (credit_transactions) arrives with the payments work; until then the balance
      // is the users.credits column, which nothing changes yet.
      return {
        success: true as const,
        data: { total_credits: user.credits, transactions: [], user: toPublicUser(user) },
      };
    },
  );
}
