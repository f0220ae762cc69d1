/**
 * HTTP for promotion codes (issue 37, item 1): the admin's codes (create, list, on/off, uses;
 * each change in the audit log) and the pricing page's check of a code against one purchase.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { currentUser } from '../../../core/auth.ts';
import { msg } from '../../../core/api-messages.ts';
import { ErrorResponse } from '../../../contracts/common.ts';
import {
  CreatePromotionCodeBody,
  PromotionCodeParams,
  PromotionCodeResponse,
  PromotionCodesResponse,
  PromotionPageQuery,
  PromotionQuoteQuery,
  PromotionQuoteResponse,
  PromotionRedemptionsResponse,
  SetPromotionActiveBody,
} from '../../../contracts/promotions.ts';
import { toCents } from '../../../../shared/billing.ts';
import { adminName } from '../../admin/service.ts';
import { priceRequest } from '../pricing.ts';
import type { PromotionAdmin } from './admin.ts';
import type { PromotionChecks } from './checks.ts';

/**
 * Codes a user may check a minute: far more than a buyer types, few enough that guessing codes
 * one after another gets nowhere.
 */
export const QUOTES_PER_MINUTE = 30;

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
  429: ErrorResponse,
  502: ErrorResponse,
};

export async function promotionRoutes(
  fastify: FastifyInstance,
  opts: { promotions: { admin: PromotionAdmin; checks: PromotionChecks } },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { admin, checks } = opts.promotions;
  const ok = <T>(data: T) => ({ success: true as const, data });
  const guarded = { config: { access: 'admin' as const } };
  const adminSchema = { tags: ['admin'], security: [{ bearer: [] }] };

  app.get(
    '/api/stripe/promotion-codes/:code',
    {
      config: {
        access: 'user',
        signInMessage: msg('billing.sign_in_required'),
        // Per user, after the session is read (the session read is the route's first hook).
        rateLimit: {
          max: QUOTES_PER_MINUTE,
          timeWindow: '1 minute',
          keyGenerator: (request: FastifyRequest) =>
            `promotion-quote:${request.user?.id ?? request.ip}`,
        },
      },
      schema: {
        tags: ['billing'],
        summary: 'What a promotion code does to one purchase: the price before and after',
        params: PromotionCodeParams,
        querystring: PromotionQuoteQuery,
        response: { 200: PromotionQuoteResponse, ...errors },
      },
    },
    async (request) => {
      const item = priceRequest({ ...request.query, success_url: '', cancel_url: '' });
      const priced = { ...item, listCents: toCents(item.price) };
      return ok(await checks.quote(currentUser(request).id, request.params.code, priced));
    },
  );

  app.post(
    '/api/admin/promotion-codes',
    {
      ...guarded,
      schema: {
        ...adminSchema,
        summary:
          'Create a promotion code (percent or amount off; with Stripe, its coupon and promotion code too)',
        body: CreatePromotionCodeBody,
        response: { 201: PromotionCodeResponse, ...errors },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const created = await admin.create({ name: adminName(user), userId: user.id }, request.body);
      return reply.status(201).send(ok(created));
    },
  );

  app.get(
    '/api/admin/promotion-codes',
    {
      ...guarded,
      schema: {
        ...adminSchema,
        summary: 'Promotion codes, newest first (keyset pages: pass next_cursor as cursor)',
        querystring: PromotionPageQuery,
        response: { 200: PromotionCodesResponse, ...errors },
      },
    },
    async (request) => ok(await admin.list(request.query)),
  );

  app.patch(
    '/api/admin/promotion-codes/:code',
    {
      ...guarded,
      schema: {
        ...adminSchema,
        summary: 'Turn a promotion code on or off (here and at Stripe)',
        params: PromotionCodeParams,
        body: SetPromotionActiveBody,
        response: { 200: PromotionCodeResponse, ...errors },
      },
    },
    async (request) =>
      ok(
        await admin.setActive(
          adminName(currentUser(request)),
          request.params.code,
          request.body.active,
        ),
      ),
  );

  app.get(
    '/api/admin/promotion-codes/:code/redemptions',
    {
      ...guarded,
      schema: {
        ...adminSchema,
        summary: "A promotion code's uses (reserved, redeemed, released), newest first",
        params: PromotionCodeParams,
        querystring: PromotionPageQuery,
        response: { 200: PromotionRedemptionsResponse, ...errors },
      },
    },
    async (request) => ok(await admin.redemptions(request.params.code, request.query)),
  );
}
