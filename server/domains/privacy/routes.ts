/** HTTP for a customer's own data: the export download and closing the account. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { currentUser } from '../../core/auth.ts';
import { unauthorized } from '../../core/errors.ts';
import { ErrorResponse, MessageResponse } from '../../contracts/common.ts';
import { AccountExportResponse, CloseAccountBody } from '../../contracts/account.ts';
import type { PrivacyService } from './service.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse };

export async function privacyRoutes(
  fastify: FastifyInstance,
  opts: { privacy: PrivacyService; authRateLimit: number },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { privacy } = opts;
  const tags = ['account'];

  app.get(
    '/api/account/export',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary:
          'Download your data as JSON: profile, credits ledger, video tasks and payments (an attachment)',
        response: { 200: AccountExportResponse, ...errors },
      },
    },
    async (request, reply) => {
      const data = await privacy.exportData(currentUser(request).id);
      const day = data.exported_at.slice(0, 10);
      reply.headers({
        'cache-control': 'no-store',
        'content-disposition': `attachment; filename="account-data-${day}.json"`,
      });
      return { success: true as const, data };
    },
  );

  app.delete(
    '/api/account',
    {
      // Per client address, like the sign-in routes: the password is checked here too.
      config: {
        access: 'user',
        rateLimit: { max: opts.authRateLimit, timeWindow: '1 minute' },
      },
      schema: {
        tags,
        summary:
          'Close your account: the subscription is cancelled now, videos deleted, every session ended',
        body: CloseAccountBody,
        response: { 200: MessageResponse, ...errors, 409: ErrorResponse, 429: ErrorResponse },
      },
    },
    async (request) => {
      const user = currentUser(request);
      if (!request.session) throw unauthorized();
      const { message } = await privacy.closeAccount(user, request.session, request.body);
      return { success: true, message };
    },
  );
}
