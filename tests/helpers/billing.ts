/** Checkout requests as the pricing page sends them, for the billing tests. */
import type { FastifyInstance } from 'fastify';
import { bearer } from './app.ts';

/** The site's origin in test apps (PUBLIC_SITE_URL in `testConfig`). */
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
