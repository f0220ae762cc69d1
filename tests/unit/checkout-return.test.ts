// @vitest-environment happy-dom
/**
 * Purchase analytics wait for the payment (issue 20 item 8): spec 7's `purchase` (packs) and
 * `subscribe` (plans) are sent once, when the buyer is back from checkout and the server says the
 * checkout is paid; never when the checkout starts, never on a cancel, never twice for one
 * checkout. The API and analytics modules are replaced; the stores are the page's own.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Window as HappyWindow } from 'happy-dom';

const calls = vi.hoisted(() => ({
  track: [] as Array<[string, Record<string, unknown>]>,
  status: null as null | Record<string, unknown>,
}));

vi.mock('../../site/lib/analytics.ts', () => ({
  trackPurchase: (details: Record<string, unknown>) => calls.track.push(['purchase', details]),
  trackSubscribe: (details: Record<string, unknown>) => calls.track.push(['subscribe', details]),
  trackCancelSubscription: () => calls.track.push(['cancel_subscription', {}]),
}));
vi.mock('../../site/lib/api/billing.ts', () => ({
  createPaymentSession: async () => ({
    success: true,
    url: '/checkout/local/cs_1',
    sessionId: 'cs_1',
  }),
  getCheckoutStatus: async () => ({ success: true, data: calls.status }),
  getSubscriptionStatus: async () => ({ hasActiveSubscription: false }),
  cancelSubscriptionNow: async () => ({ success: true }),
}));
vi.mock('../../site/stores/credits.ts', () => ({ refreshCredits: async () => 0 }));

const { handleCheckoutReturn } = await import('../../site/stores/checkout-return.ts');
const subscription = await import('../../site/stores/subscription.ts');

const happyDOM = () => (window as unknown as HappyWindow).happyDOM;

const paid = (over: Record<string, unknown> = {}) => ({
  sessionId: 'cs_pack_1',
  status: 'paid',
  type: 'credits',
  credits: 330,
  item_id: 'starter',
  billing_cycle: null,
  amount: 19.9,
  currency: 'usd',
  ...over,
});

beforeEach(() => {
  calls.track.length = 0;
  calls.status = null;
  sessionStorage.clear();
});
afterEach(() => vi.restoreAllMocks());

describe('purchase analytics', () => {
  it('are not sent when the checkout session is created', async () => {
    const url = await subscription.createCheckoutSession({
      type: 'subscription',
      id: 'pro',
      name: 'Pro',
      price: 479,
      credits: 1340,
      billingCycle: 'yearly',
    });
    expect(url).toBe('/checkout/local/cs_1');
    expect(calls.track).toEqual([]);
  });

  it('send purchase once when the server confirms a paid pack, with its transaction id', async () => {
    calls.status = paid();
    happyDOM().setURL('http://localhost/pricing?payment=success&session_id=cs_pack_1');
    await handleCheckoutReturn();
    expect(calls.track).toEqual([
      ['purchase', { value: 19.9, currency: 'USD', itemId: 'starter', transactionId: 'cs_pack_1' }],
    ]);
    expect(window.location.search).toBe('');
    // The same success address again (back button, a reload): nothing more is sent.
    happyDOM().setURL('http://localhost/pricing?payment=success&session_id=cs_pack_1');
    await handleCheckoutReturn();
    expect(calls.track).toHaveLength(1);
  });

  it('send subscribe for a paid plan with its cycle and the price charged', async () => {
    calls.status = paid({
      sessionId: 'cs_plan_1',
      type: 'subscription',
      item_id: 'pro',
      billing_cycle: 'yearly',
      amount: 479,
      credits: 1340,
    });
    happyDOM().setURL('http://localhost/pricing?payment=success&session_id=cs_plan_1');
    await handleCheckoutReturn();
    expect(calls.track).toEqual([
      [
        'subscribe',
        {
          value: 479,
          currency: 'USD',
          planId: 'pro',
          billingCycle: 'yearly',
          transactionId: 'cs_plan_1',
        },
      ],
    ]);
  });

  it.each([
    ['a cancelled checkout', '?payment=cancelled', null],
    ['an expired checkout', '?payment=success&session_id=cs_x', paid({ status: 'expired' })],
    ['a failed payment', '?payment=success&session_id=cs_x', paid({ status: 'failed' })],
  ])('send nothing for %s', async (_name, query, status) => {
    calls.status = status;
    happyDOM().setURL(`http://localhost/pricing${query}`);
    await handleCheckoutReturn();
    expect(calls.track).toEqual([]);
  });
});

describe('the payment request', () => {
  it('asks for the cycle the buyer chose, at that cycle’s price', () => {
    const request = subscription.paymentRequest({
      type: 'subscription',
      id: 'lite',
      name: 'Lite',
      price: 286,
      credits: 590,
      billingCycle: 'yearly',
    });
    expect(request).toMatchObject({
      type: 'subscription',
      plan_id: 'lite',
      billing_cycle: 'yearly',
      amount: 286,
    });
  });
});
