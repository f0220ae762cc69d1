/**
 * HTTP for issue 37, item 2: `POST /api/stripe/portal` (the "Manage billing" action),
 * `GET /api/account/billing` (whether there is anything to manage) and `GET /api/account/payments`
 * (the billing page's list, keyset-paged).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { currentUser } from '../../core/auth.ts';
import type { Db } from '../../core/db.ts';
import { ErrorResponse } from '../../contracts/common.ts';
import {
  BillingPaymentsPage,
  BillingPaymentsQuery,
  BillingSummary,
  PortalRequest,
  PortalResponse,
} from '../../contracts/billing-portal.ts';
import { localeFromAcceptLanguage } from '../../../shared/locales.ts';
import { listPayments } from './payment-history.ts';
import type { Portal } from './portal.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse };
const PORTAL_SESSIONS_PER_MINUTE = 10;

export async function portalRoutes(fastify: FastifyInstance, opts: { db: Db; portal: Portal }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, portal } = opts;
  const tags = ['billing'];

  app.post(
    '/api/stripe/portal',
    {
      config: {
        access: 'user',
        // Each call opens a session at Stripe: a person clicks a few times, a loop is refused.
        rateLimit: {
          max: PORTAL_SESSIONS_PER_MINUTE,
          timeWindow: '1 minute',
          hook: 'preHandler' as const,
          keyGenerator: (request: FastifyRequest) =>
            `billing-portal:${request.user?.id ?? request.ip}`,
        },
      },
      // The body is optional: a bare POST asks for the portal coming back to the referring page.
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags,
        summary:
          "Open the billing portal: Stripe's customer portal, or the local billing page in local mode",
        body: PortalRequest,
        response: { 200: PortalResponse, ...errors },
      },
    },
    async (request) => {
      const referer = request.headers.referer;
      const data = await portal.openPortal(currentUser(request).id, {
        returnUrl: request.body.return_url,
        referer: typeof referer === 'string' ? referer : undefined,
        locale: localeFromAcceptLanguage(request.headers['accept-language']),
      });
      return { success: true as const, data };
    },
  );

  app.get(
    '/api/account/billing',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Whether the signed-in user has billing history (payments or a subscription)',
        response: { 200: BillingSummary, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await portal.summary(currentUser(request).id),
    }),
  );

  app.get(
    '/api/account/payments',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "The signed-in user's payments, newest first, with their receipts",
        querystring: BillingPaymentsQuery,
        response: { 200: BillingPaymentsPage, ...errors },
      },
    },
    async (request) => {
      const { cursor, limit = 20 } = request.query;
      return {
        success: true as const,
        data: await listPayments(db, currentUser(request).id, { cursor, limit }),
      };
    },
  );
}
