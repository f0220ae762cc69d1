/**
 * What Stripe does after the buyer leaves our site, for the Stripe fake: the buyer pays, a
 * subscription renews, a payment is refunded. Each mutates the stored objects as Stripe does and
 * returns the signed webhook deliveries Stripe would send.
 */
import { periodOf } from './calendar.ts';
import { renderSession } from './checkout-sessions.ts';
import { ensureCustomer } from './customers.ts';
import { event, sign } from './events.ts';
import { newId, nowSeconds } from './ids.ts';
import { issueInvoice, renderInvoice } from './invoices.ts';
import { renderCharge } from './payments.ts';
import type { PaymentIntentState, StripeStore, SubscriptionState } from './state.ts';
import { renderSubscription } from './subscriptions.ts';
import type { SignedEvent } from './types.ts';

export function completeCheckout(
  store: StripeStore,
  sessionId: string,
  buyerIn: { email?: string; name?: string } = {},
): SignedEvent[] {
  const s = store.sessions.get(sessionId);
  if (!s) throw new Error(`stripe fake: unknown checkout session ${sessionId}`);
  if (s.status !== 'open')
    throw new Error(`stripe fake: session ${sessionId} is ${s.status}, not open`);
  const existing = s.customerParam ? store.customers.get(s.customerParam) : undefined;
  const buyer = {
    email: buyerIn.email ?? s.customerEmail ?? existing?.email ?? 'buyer@example.com',
    name: buyerIn.name ?? existing?.name ?? 'Test Buyer',
  };
  const now = nowSeconds();
  const paymentMethod = newId('pm');
  s.customerDetails = buyer;
  s.status = 'complete';
  s.paymentStatus = 'paid';

  if (s.mode === 'payment') {
    // Payment mode only makes a Customer when asked (customer_creation=always or customer=…);
    // otherwise Stripe records a guest and session.customer stays null.
    const customer =
      s.customerParam !== null || s.customerCreation === 'always'
        ? ensureCustomer(store, s, buyer)
        : null;
    s.customer = customer?.id ?? null;
    const pi: PaymentIntentState = {
      id: newId('pi'),
      created: now,
      amount: s.amountTotal,
      currency: s.currency,
      customer: s.customer,
      description: s.paymentIntentData.description,
      metadata: { ...s.paymentIntentData.metadata },
      receiptEmail: s.paymentIntentData.receiptEmail,
      latestCharge: newId('ch'),
      paymentMethod,
    };
    store.paymentIntents.set(pi.id, pi);
    store.charges.set(pi.latestCharge, {
      id: pi.latestCharge,
      created: now,
      amount: pi.amount,
      amountRefunded: 0,
      currency: pi.currency,
      customer: pi.customer,
      description: pi.description,
      metadata: { ...pi.metadata },
      paymentIntent: pi.id,
      paymentMethod,
      billingEmail: buyer.email,
      billingName: buyer.name,
      receiptEmail: pi.receiptEmail,
    });
    s.paymentIntent = pi.id;
    return [signed(store, 'checkout.session.completed', renderSession(s, store.url))];
  }

  const customer = ensureCustomer(store, s, buyer);
  s.customer = customer.id;
  const recurringItems = s.lineItems.filter((li) => li.price.recurring);
  const firstRecurring = recurringItems[0]?.price.recurring;
  if (!firstRecurring) throw new Error('stripe fake: subscription session without recurring price');
  const sub: SubscriptionState = {
    id: newId('sub'),
    created: now,
    customer: customer.id,
    currency: s.currency,
    description: s.subscriptionData.description,
    metadata: { ...s.subscriptionData.metadata },
    items: recurringItems.map((li) => ({
      id: newId('si', 14),
      created: now,
      price: li.price,
      quantity: li.quantity,
    })),
    interval: firstRecurring.interval,
    intervalCount: firstRecurring.intervalCount,
    anchor: now,
    periodIndex: 0,
    status: 'active',
    cancelAtPeriodEnd: false,
    cancelAt: null,
    canceledAt: null,
    endedAt: null,
    cancellation: { comment: null, feedback: null, reason: null },
    latestInvoice: null,
    defaultPaymentMethod: paymentMethod,
  };
  store.subscriptions.set(sub.id, sub);
  // The first invoice covers the instant of creation; its line covers the first period.
  const inv = issueInvoice(
    store,
    sub,
    'subscription_create',
    { start: now, end: now },
    periodOf(sub),
    now,
  );
  s.subscription = sub.id;
  s.invoice = inv.id;
  return [
    signed(store, 'customer.subscription.created', renderSubscription(sub)),
    signed(store, 'invoice.paid', renderInvoice(inv, store.url)),
    signed(store, 'checkout.session.completed', renderSession(s, store.url)),
  ];
}

export function renewSubscription(store: StripeStore, subscriptionId: string): SignedEvent[] {
  const sub = store.subscriptions.get(subscriptionId);
  if (!sub) throw new Error(`stripe fake: unknown subscription ${subscriptionId}`);
  if (sub.status !== 'active')
    throw new Error(`stripe fake: subscription ${subscriptionId} is ${sub.status}`);
  const ending = periodOf(sub);
  if (sub.cancelAtPeriodEnd) {
    // No renewal: Stripe ends the subscription at the period boundary and bills nothing.
    sub.status = 'canceled';
    sub.endedAt = ending.end;
    return [signed(store, 'customer.subscription.deleted', renderSubscription(sub))];
  }
  sub.periodIndex += 1;
  // A cycle invoice's own period is the period that just ended (where usage would accrue);
  // the licensed line item is billed in advance for the new period.
  const inv = issueInvoice(store, sub, 'subscription_cycle', ending, periodOf(sub), ending.end);
  return [signed(store, 'invoice.paid', renderInvoice(inv, store.url))];
}

export function refundCheckout(
  store: StripeStore,
  sessionId: string,
  amountCents?: number,
): SignedEvent[] {
  const s = store.sessions.get(sessionId);
  if (!s?.paymentIntent)
    throw new Error(`stripe fake: session ${sessionId} has no payment to refund`);
  const pi = store.paymentIntents.get(s.paymentIntent);
  const ch = pi ? store.charges.get(pi.latestCharge) : undefined;
  if (!ch) throw new Error(`stripe fake: no charge behind session ${sessionId}`);
  const remaining = ch.amount - ch.amountRefunded;
  const amount = amountCents ?? remaining;
  if (!Number.isInteger(amount) || amount <= 0 || amount > remaining) {
    throw new Error(`stripe fake: cannot refund ${amount} of ${remaining} remaining on ${ch.id}`);
  }
  const previous = { amount_refunded: ch.amountRefunded, refunded: false };
  ch.amountRefunded += amount;
  return [signed(store, 'charge.refunded', renderCharge(ch, store.url), previous)];
}

/** One webhook delivery of Stripe's own doing (no API request behind it). */
function signed(
  store: StripeStore,
  type: string,
  object: object,
  previousAttributes?: Record<string, unknown>,
): SignedEvent {
  return sign(store, event(store, type, object, previousAttributes));
}
