/** Checkout requests as the pricing page sends them, for the billing tests. */
import type { FastifyInstance } from 'fastify';
import { bearer } from './app.ts';
import { localCheckoutForm } from './local-checkout.ts';

/** The site's origin in test apps (PUBLIC_SITE_URL in `testConfig`). */
/** The settings that point the app at a Stripe fake (tests/fakes/stripe). */
export function stripeEnv(stripe: {
  secretKey: string;
  webhookSecret: string;
  url: string;
}): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_BASE: stripe.url,
  };
}

/** POSTs a signed Stripe event (tests/fakes/stripe) to the app's webhook, as Stripe would. */
export function injectStripeEvent(
  app: FastifyInstance,
  signed: { header: string; payload: string },
) {
  return app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signed.header },
    payload: signed.payload,
  });
}

export const SITE_ORIGIN = 'http://localhost:4321';

/** The return URLs the pricing page asks the checkout for. */
export const CHECKOUT_RETURN_URLS = {
  success_url: `${SITE_ORIGIN}/pricing?payment=success&session_id={CHECKOUT_SESSION_ID}`,
  cancel_url: `${SITE_ORIGIN}/pricing?payment=cancelled`,
};

/** POST /api/stripe/create-payment-intent with the return URLs (signed out when `token` is null). */
export function requestCheckout(app: FastifyInstance, token: string | null, payload: object) {
  return app.inject({
    method: 'POST',
    url: '/api/stripe/create-payment-intent',
    headers: token ? bearer(token) : {},
    payload: { ...CHECKOUT_RETURN_URLS, ...payload },
  });
}

/** The url-encoded form of a local checkout's page, as the buyer's open page holds it. */
export async function openLocalCheckoutForm(app: FastifyInstance, sessionId: string) {
  return localCheckoutForm((await app.inject({ url: `/checkout/local/${sessionId}` })).body);
}

/**
 * Presses Pay (or Cancel) on the local checkout page as a browser does: posts the page's form
 * (`form`, else the page opened now) from the site's origin (`origin`: PUBLIC_SITE_URL's).
 */
export async function submitLocalCheckout(
  app: FastifyInstance,
  sessionId: string,
  action: 'pay' | 'cancel' = 'pay',
  { origin = SITE_ORIGIN, form }: { origin?: string; form?: string } = {},
) {
  return app.inject({
    method: 'POST',
    url: `/checkout/local/${sessionId}/${action}`,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin,
      'sec-fetch-site': 'same-origin',
    },
    payload: form ?? (await openLocalCheckoutForm(app, sessionId)),
  });
}
