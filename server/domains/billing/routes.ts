/** HTTP for billing: checkout, subscription status and cancel, Stripe webhook, local checkout. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Config } from '../../config.ts';
import { currentUser } from '../../core/auth.ts';
import { ErrorResponse } from '../../contracts/common.ts';
import {
  CancelSubscriptionBody,
  CancelSubscriptionResponse,
  CheckoutStatusResponse,
  PaymentRequest,
  PaymentSessionResponse,
  SubscriptionStatusResponse,
} from '../../contracts/billing.ts';
import type { UserRow } from '../../db/schema.ts';
import { createLocalCheckoutGuard } from './local-checkout-guard.ts';
import { renderLocalCheckoutPage, renderLocalCheckoutRefusal } from './local-checkout-page.ts';
import type { BillingService } from './service.ts';
import { msg } from '../../core/api-messages.ts';
import { localeFromAcceptLanguage } from '../../../shared/locales.ts';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
};
const SessionParams = Type.Object({
  sessionId: Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_]+$' }),
});

export async function billingRoutes(
  fastify: FastifyInstance,
  opts: {
    billing: BillingService;
    config: Config;
    findUser: (id: string) => Promise<UserRow | null>;
    handleStripeWebhook:
      ((payload: Buffer, signature: string | undefined) => Promise<unknown>) | null;
  },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { billing, config } = opts;
  const tags = ['billing'];

  app.post(
    '/api/stripe/create-payment-intent',
    {
      // Checked before the body is read, so a signed-out buyer sees the spec's message.
      config: { access: 'user', signInMessage: msg('billing.sign_in_required') },
      schema: {
        tags,
        summary: 'Create a hosted checkout session for a plan or a credit pack',
        body: PaymentRequest,
        response: { 200: PaymentSessionResponse, ...errors },
      },
    },
    async (request) => {
      const session = await billing.createCheckout(
        currentUser(request),
        {
          ...request.body,
          // The buyer's language for their receipts: the page's, else their browser's (issue 37).
          locale:
            request.body.locale ?? localeFromAcceptLanguage(request.headers['accept-language']),
        },
        config.publicSiteUrl,
      );
      return { success: true as const, url: session.url, sessionId: session.sessionId };
    },
  );

  app.get(
    '/api/stripe/checkout/:sessionId',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Where a checkout stands (after the buyer returns)',
        params: SessionParams,
        response: { 200: CheckoutStatusResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await billing.checkoutStatus(currentUser(request).id, request.params.sessionId),
    }),
  );

  app.get(
    '/api/stripe/subscription/status',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: "The signed-in user's active subscription",
        response: { 200: SubscriptionStatusResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await billing.subscriptionStatus(currentUser(request).id)),
    }),
  );

  app.post(
    '/api/stripe/subscription/cancel',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Cancel the active subscription now',
        body: Type.Optional(CancelSubscriptionBody),
        response: { 200: CancelSubscriptionResponse, ...errors },
      },
    },
    async (request) => {
      const { message } = await billing.cancelSubscription(currentUser(request).id);
      return { success: true as const, data: { message } };
    },
  );

  if (opts.handleStripeWebhook) {
    const handle = opts.handleStripeWebhook;
    // The signature covers the exact bytes Stripe sent: keep the raw body in this scope.
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser(
        '*',
        { parseAs: 'buffer', bodyLimit: 1024 * 1024 },
        (_req, body, done) => done(null, body),
      );
      scope.post(
        '/api/stripe/webhook',
        {
          config: { access: 'webhook' },
          schema: { tags, summary: 'Stripe webhook (signed)', hide: false },
        },
        async (request) => {
          const signature = request.headers['stripe-signature'];
          const result = await handle(
            request.body as Buffer,
            typeof signature === 'string' ? signature : undefined,
          );
          return { received: true, ...(result as object) };
        },
      );
    });
  }

  if (config.localMode && !config.stripe) {
    const guard = createLocalCheckoutGuard(config.publicSiteUrl);
    await app.register(async (scope) => {
      // The local checkout's forms post one small url-encoded field: the page's form token.
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 4096 },
        (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
      );
      // Pay and Cancel count only when posted by the checkout page itself (issue 16, finding 15).
      scope.addHook('preHandler', async (request, reply) => {
        if (request.method !== 'POST') return;
        const { sessionId } = request.params as { sessionId: string };
        const form = typeof request.body === 'object' && request.body ? request.body : {};
        const reason = guard.refusal(sessionId, request.headers, form as Record<string, string>);
        if (!reason) return;
        request.log.warn({ sessionId, reason }, 'local checkout post refused');
        return reply
          .code(403)
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(renderLocalCheckoutRefusal(`${config.publicSiteUrl}/pricing`));
      });
      scope.get(
        '/checkout/local/:sessionId',
        // The unguessable session id is the buyer's key to their own local checkout.
        { config: { access: 'public' }, schema: { hide: true, params: SessionParams } },
        async (request, reply) => {
          const { sessionId } = request.params as { sessionId: string };
          const checkout = await billing.findCheckout(sessionId);
          if (!checkout || checkout.provider !== 'local') return reply.callNotFound();
          const owner = await opts.findUser(checkout.userId);
          return reply
            .type('text/html; charset=utf-8')
            .header('cache-control', 'no-store')
            .send(
              renderLocalCheckoutPage(checkout, owner?.email ?? '', guard.tokenFor(checkout.id)),
            );
        },
      );
      scope.post(
        '/checkout/local/:sessionId/pay',
        { config: { access: 'public' }, schema: { hide: true, params: SessionParams } },
        async (request, reply) => {
          const { sessionId } = request.params as { sessionId: string };
          const checkout = await billing.payLocalCheckout(sessionId);
          return reply.redirect(
            checkout.successUrl.replaceAll('{CHECKOUT_SESSION_ID}', checkout.id),
            303,
          );
        },
      );
      scope.post(
        '/checkout/local/:sessionId/cancel',
        { config: { access: 'public' }, schema: { hide: true, params: SessionParams } },
        async (request, reply) => {
          const { sessionId } = request.params as { sessionId: string };
          const checkout = await billing.cancelLocalCheckout(sessionId);
          return reply.redirect(
            checkout.cancelUrl.replaceAll('{CHECKOUT_SESSION_ID}', checkout.id),
            303,
          );
        },
      );
    });
  }
}
