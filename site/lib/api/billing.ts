/**
 * The billing calls (spec 7 "stripe calls"): subscription status and cancel, the hosted checkout
 * session, and a checkout's status after the provider sends the buyer back. No change is retried:
 * a retried timeout could open two sessions for one click, and a repeated cancel only confuses.
 */
import type {
  CancelSubscriptionResponse,
  CheckoutStatusResponse,
  PaymentRequest,
  PaymentSessionResponse,
} from '../../../shared/api/billing.ts';
import { api } from './http.ts';

/** The answer as sent: spec 7 allows the status directly or under `data`, so it is read loosely. */
export async function getSubscriptionStatus(): Promise<unknown> {
  return api.get('/api/stripe/subscription/status').json<unknown>();
}

/** Spec 7: POST /api/stripe/subscription/cancel { immediately: true }. */
export async function cancelSubscriptionNow(): Promise<CancelSubscriptionResponse> {
  return api
    .post('/api/stripe/subscription/cancel', { json: { immediately: true }, retry: 0 })
    .json<CancelSubscriptionResponse>();
}

/** Create the hosted checkout session; the answer is checked by the caller. */
export async function createPaymentSession(
  request: PaymentRequest,
): Promise<Partial<PaymentSessionResponse> & { success?: boolean }> {
  return api.post('/api/stripe/create-payment-intent', { json: request, retry: 0 }).json();
}

/** One look at a checkout's status (the caller polls, so no retries here). */
export async function getCheckoutStatus(sessionId: string): Promise<CheckoutStatusResponse> {
  return api
    .get(`/api/stripe/checkout/${encodeURIComponent(sessionId)}`, { retry: 0 })
    .json<CheckoutStatusResponse>();
}
