/** HTTP for credits: balance, history, and the admin add/deduct/validate calls (spec 7). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { currentUser } from '../../core/auth.ts';
import { badRequest, forbidden } from '../../core/errors.ts';
import { ErrorResponse } from '../../contracts/common.ts';
import {
  BalanceResponse,
  CreditChangeBody,
  CreditChangeResponse,
  TransactionsQuery,
  TransactionsResponse,
  UserIdParams,
  ValidateResponse,
} from '../../contracts/credits.ts';
import { toPublicUser } from '../accounts/service.ts';
import { toApiTransaction, type CreditsService } from './service.ts';
import { msg } from '../../core/api-messages.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

export async function creditsRoutes(fastify: FastifyInstance, opts: { credits: CreditsService }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { credits } = opts;
  const tags = ['credits'];

  app.get(
    '/api/credits/balance',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "The signed-in user's balance, latest 10 transactions and user",
        response: { 200: BalanceResponse, ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const transactions = await credits.recentTransactions(user.id, 10);
      return {
        success: true as const,
        data: { total_credits: user.credits, transactions, user: toPublicUser(user) },
      };
    },
  );

  app.get(
    '/api/credits/:userId/transactions',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "A user's ledger, newest first (own user, or an administrator)",
        params: UserIdParams,
        querystring: TransactionsQuery,
        response: { 200: TransactionsResponse, ...errors },
      },
    },
    async (request) => {
      const { userId } = request.params;
      if (userId !== currentUser(request).id && !request.session?.isAdmin) {
        throw forbidden(msg('credits.not_your_ledger'), 'NOT_YOUR_LEDGER');
      }
      const { limit, offset, cursor } = request.query;
      if (cursor === undefined) {
        const page = await credits.latestTransactions(userId, limit, offset);
        return { success: true as const, data: { ...page, limit, offset } };
      }
      if (offset > 0) throw badRequest(msg('credits.cursor_with_offset'), 'CURSOR_WITH_OFFSET');
      const page = await credits.transactionsAfter(userId, cursor, limit);
      return { success: true as const, data: { ...page, limit } };
    },
  );

  for (const direction of ['add', 'deduct'] as const) {
    app.post(
      `/api/credits/${direction}`,
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary:
            direction === 'add'
              ? 'Grant credits (administrators; idempotent on sourceType + sourceId per admin and user)'
              : 'Deduct credits (administrators; idempotent on sourceType + sourceId per admin and user)',
          body: CreditChangeBody,
          response: {
            200: CreditChangeResponse,
            ...errors,
            402: ErrorResponse,
            409: ErrorResponse,
          },
        },
      },
      async (request) => {
        const body = request.body;
        // sourceId is the admin's idempotency key, scoped to this admin and this user.
        const applied = await credits.applyAdmin({
          admin: currentUser(request).id,
          key: body.sourceId,
          userId: body.userId,
          amount: direction === 'add' ? body.amount : -body.amount,
          sourceType: body.sourceType,
          description: body.description,
        });
        return {
          success: true as const,
          data: {
            transaction: toApiTransaction(applied.transaction),
            balance: applied.transaction.balanceAfter,
            duplicate: applied.duplicate,
          },
        };
      },
    );
  }

  app.post(
    '/api/credits/validate/:userId',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: "Whether a user's ledger sum equals their balance (administrators)",
        params: UserIdParams,
        response: { 200: ValidateResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await credits.validate(request.params.userId),
    }),
  );
}
