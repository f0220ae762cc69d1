/**
 * The local checkout (local mode only): sessions live in our database and are paid on a page we
 * serve (/checkout/local/{id}); paying runs the same fulfillment function as Stripe's webhook.
 */
import { randomBytes } from 'node:crypto';
import type { BillingCycle } from '../../../../shared/billing.ts';
import type { CheckoutProvider, PaidCheckout } from './types.ts';

const hex = () => randomBytes(12).toString('hex');

/** One billing period after `start` (calendar months, as Stripe bills). */
export function addCycle(start: Date, cycle: BillingCycle): Date {
  const end = new Date(start);
  if (cycle === 'yearly') end.setUTCFullYear(end.getUTCFullYear() + 1);
  else end.setUTCMonth(end.getUTCMonth() + 1);
  return end;
}

export function createLocalCheckoutProvider(): CheckoutProvider {
  return {
    name: 'local',
    async createCustomer() {
      return null; // the local checkout knows buyers by their user id
    },
    async createSession() {
      const id = `cs_local_${hex()}`;
      return { id, url: `/checkout/local/${id}`, expiresAt: null };
    },
    async retrieveSession() {
      // Local sessions change only through our own pay/cancel routes: the row is the truth.
      return { status: 'open' };
    },
    async expireSession() {
      return { status: 'expired' }; // the caller's row update is all there is
    },
    async cancelSubscription() {
      // Nothing to tell: the local subscription exists only in our database.
    },
    async refundSubscription() {
      // No money moved: a local subscription is paid on our own page.
    },
    async createPromotion() {
      return null; // the local checkout applies our own codes itself
    },
    async setPromotionActive() {},
  };
}

/** What paying a local session produces: the same shape Stripe's webhook yields. */
export function localPayment(
  sessionId: string,
  kind: 'subscription' | 'credits',
  cycle: BillingCycle | null,
  now = new Date(),
): PaidCheckout {
  const suffix = sessionId.replace(/^cs_local_/, '');
  return {
    sessionId,
    paymentIntentId: `pi_local_${suffix}`,
    invoiceId: null,
    subscription:
      kind === 'subscription'
        ? {
            id: `sub_local_${suffix}`,
            status: 'active',
            periodStart: now,
            periodEnd: addCycle(now, cycle ?? 'monthly'),
            cancelAtPeriodEnd: false,
            canceledAt: null,
            metadata: {},
          }
        : null,
  };
}
