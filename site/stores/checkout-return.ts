/**
 * The pricing page's return from the hosted checkout (spec 4 "Payment dialog", 8 Payment): the
 * provider sends the buyer back to `?payment=success&session_id=…` or `?payment=cancelled`. The
 * page asks the server where the checkout stands, says how it went, reports a confirmed payment
 * to analytics once (spec 7 purchase / subscribe), and refreshes credits and subscription. The
 * banners hold messages; the page's Pricing island shows them in its language.
 */
import type { CheckoutStatusResponse } from '../../shared/api/billing.ts';
import { trackPurchase, trackSubscribe } from '../lib/analytics.ts';
import {
  pricing_checkout_cancelled,
  pricing_checkout_not_completed,
  pricing_payment_confirming,
  pricing_payment_failed,
  pricing_payment_pending,
  pricing_payment_succeeded,
} from '../i18n/messages.ts';
import { getCheckoutStatus } from '../lib/api/billing.ts';
import { refreshCredits } from './credits.ts';
import {
  BANNER_LONG_MS,
  BANNER_SHORT_MS,
  CHECKOUT_POLL_INTERVAL_MS,
  CHECKOUT_POLL_LIMIT,
  refreshSubscription,
  showBanner,
} from './subscription.ts';

type CheckoutState = CheckoutStatusResponse['data'];

const sleep = (ms: number) => new Promise<void>((resolve) => window.setTimeout(resolve, ms));

/** Poll a checkout until it is paid or closed, at most CHECKOUT_POLL_LIMIT times. */
async function waitForCheckout(sessionId: string): Promise<CheckoutState | { status: 'unknown' }> {
  for (let attempt = 1; attempt <= CHECKOUT_POLL_LIMIT; attempt += 1) {
    try {
      // One request per attempt: the poll itself is the retry.
      const body = await getCheckoutStatus(sessionId);
      const state = body?.data;
      if (state?.status && state.status !== 'open') return state;
    } catch (error) {
      console.error('[checkout] status unavailable', error);
    }
    if (attempt < CHECKOUT_POLL_LIMIT) await sleep(CHECKOUT_POLL_INTERVAL_MS);
  }
  return { status: 'unknown' };
}

/**
 * Spec 7's purchase (packs) and subscribe (plans), once per paid checkout: the server has
 * confirmed the payment. Coming back to the same success address (history, a reload before the
 * address was cleaned) reports nothing more; GA4 also dedupes purchases by transaction_id.
 */
function reportConfirmedPayment(state: CheckoutState): void {
  const key = `checkout-reported:${state.sessionId}`;
  try {
    if (window.sessionStorage.getItem(key)) return;
    window.sessionStorage.setItem(key, '1');
  } catch {
    // Storage blocked: the address is cleaned right after, which keeps it to one report.
  }
  const currency = state.currency.toUpperCase();
  if (state.type === 'subscription') {
    trackSubscribe({
      value: state.amount,
      currency,
      planId: state.item_id,
      billingCycle: state.billing_cycle ?? 'monthly',
      transactionId: state.sessionId,
    });
  } else {
    trackPurchase({
      value: state.amount,
      currency,
      itemId: state.item_id,
      transactionId: state.sessionId,
    });
  }
}

/**
 * The provider sent the buyer back (`?payment=success&session_id=…` or `?payment=cancelled`):
 * confirm the payment, say how it went, refresh credits and subscription, and clean the URL.
 */
export async function handleCheckoutReturn(): Promise<void> {
  const url = new URL(window.location.href);
  const payment = url.searchParams.get('payment');
  if (payment !== 'success' && payment !== 'cancelled') return;
  const sessionId = url.searchParams.get('session_id');

  const cleanUrl = () => {
    url.searchParams.delete('payment');
    url.searchParams.delete('session_id');
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
  };

  if (payment === 'cancelled' || !sessionId) {
    cleanUrl();
    showBanner({ tone: 'info', message: pricing_checkout_cancelled, durationMs: BANNER_SHORT_MS });
    return;
  }

  showBanner({ tone: 'info', message: pricing_payment_confirming, durationMs: null });
  const status = await waitForCheckout(sessionId);
  cleanUrl();
  if (status.status === 'paid') {
    reportConfirmedPayment(status);
    showBanner({
      tone: 'success',
      message: pricing_payment_succeeded,
      durationMs: BANNER_SHORT_MS,
    });
  } else if (status.status === 'canceled' || status.status === 'expired') {
    showBanner({
      tone: 'info',
      message: pricing_checkout_not_completed,
      durationMs: BANNER_LONG_MS,
    });
    return;
  } else if (status.status === 'failed') {
    // A delayed payment (e.g. a bank debit) that did not go through: nothing was granted.
    showBanner({ tone: 'error', message: pricing_payment_failed, durationMs: BANNER_LONG_MS });
    return;
  } else {
    showBanner({ tone: 'info', message: pricing_payment_pending, durationMs: BANNER_LONG_MS });
  }
  // Paid or still confirming: the webhook may already have credited the account.
  await Promise.all([refreshCredits({ force: true }), refreshSubscription()]);
}
