/**
 * What Stripe does after the buyer leaves our site, for the Stripe fake: the buyer pays (at once,
 * or by a delayed method that settles later), an unpaid session expires, a subscription renews
 * (or its renewal fails and is retried), a payment is refunded or disputed. Each mutates the
 * stored objects as Stripe does and returns the signed webhook deliveries Stripe would send.
 */
import { periodOf } from './calendar.ts';
import { renderSession } from './checkout-sessions.ts';
import { ensureCustomer } from './customers.ts';
import { decideDispute, openDispute, renderDispute } from './disputes.ts';
import { diffTopLevel, event, sign } from './events.ts';
import { newId, nowSeconds } from './ids.ts';
import { attemptInvoicePayment, paymentOfInvoice } from './invoice-payments.ts';
import { issueInvoice, renderInvoice } from './invoices.ts';
import { createPayment, renderCharge, settlePayment } from './payments.ts';
import { redeemDiscount, typedDiscount } from './promotions.ts';
import type { ChargeState, StripeStore, SubscriptionState } from './state.ts';
import { renderSubscription } from './subscriptions.ts';
import type { SignedEvent } from './types.ts';

export function completeCheckout(
  store: StripeStore,
  sessionId: string,
  buyerIn: { email?: string; name?: string } = {},
  opts: { delayed?: boolean; promotionCode?: string } = {},
): SignedEvent[] {
  const s = store.sessions.get(sessionId);
  if (!s) throw new Error(`stripe fake: unknown checkout session ${sessionId}`);
  if (s.status !== 'open')
    throw new Error(`stripe fake: session ${sessionId} is ${s.status}, not open`);
  if (opts.promotionCode !== undefined) {
    // The buyer types a code in the hosted page's own field (only when the session allows it).
    if (!s.allowPromotionCodes || s.discount) {
      throw new Error(`stripe fake: session ${sessionId} does not take a typed promotion code`);
    }
    const hasPaid = [...store.paymentIntents.values()].some(
      (pi) => pi.customer !== null && pi.customer === s.customerParam && pi.status === 'succeeded',
    );
    s.discount = typedDiscount(store, opts.promotionCode, s.amountTotal, hasPaid);
    s.amountTotal -= s.discount.amount;
  }
  redeemDiscount(store, s.discount ?? null);
  const existing = s.customerParam ? store.customers.get(s.customerParam) : undefined;
  const buyer = {
    email: buyerIn.email ?? s.customerEmail ?? existing?.email ?? 'buyer@example.com',
    name: buyerIn.name ?? existing?.name ?? 'Test Buyer',
  };
  const now = nowSeconds();
  const paymentMethod = newId('pm');
  s.customerDetails = buyer;
  s.status = 'complete';
  // A delayed method (e.g. a bank debit) completes the session unpaid; it settles later.
  s.paymentStatus = opts.delayed ? 'unpaid' : 'paid';
  if (opts.delayed && s.mode !== 'payment') {
    throw new Error('stripe fake: delayed payment is only simulated for payment-mode sessions');
  }

  if (s.mode === 'payment') {
    // Payment mode only makes a Customer when asked (customer_creation=always or customer=…);
    // otherwise Stripe records a guest and session.customer stays null.
    const customer =
      s.customerParam !== null || s.customerCreation === 'always'
        ? ensureCustomer(store, s, buyer)
        : null;
    s.customer = customer?.id ?? null;
    const pi = createPayment(
      store,
      { customer: s.customer, ...buyer, paymentMethod },
      {
        amount: s.amountTotal,
        currency: s.currency,
        description: s.paymentIntentData.description,
        metadata: s.paymentIntentData.metadata,
        receiptEmail: s.paymentIntentData.receiptEmail,
      },
      opts.delayed ? 'processing' : 'succeeded',
    );
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
  // A one-off coupon takes its discount off the first invoice only.
  inv.total -= s.discount?.amount ?? 0;
  attemptInvoicePayment(store, inv, 'succeeded');
  s.subscription = sub.id;
  s.invoice = inv.id;
  return [
    signed(store, 'customer.subscription.created', renderSubscription(sub)),
    signed(store, 'invoice.paid', renderInvoice(inv, store.url)),
    signed(store, 'checkout.session.completed', renderSession(s, store.url)),
  ];
}

/**
 * The next billing period starts and its invoice is charged. Paid: [invoice.paid]. Declined:
 * the subscription turns past_due and Stripe will retry: [invoice.payment_failed,
 * customer.subscription.updated]. A subscription set to cancel at period end is ended instead.
 */
export function renewSubscription(
  store: StripeStore,
  subscriptionId: string,
  outcome: 'succeeded' | 'failed' = 'succeeded',
): SignedEvent[] {
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
  const before = renderSubscription(sub);
  sub.periodIndex += 1;
  // A cycle invoice's own period is the period that just ended (where usage would accrue);
  // the licensed line item is billed in advance for the new period.
  const inv = issueInvoice(store, sub, 'subscription_cycle', ending, periodOf(sub), ending.end);
  attemptInvoicePayment(store, inv, outcome);
  if (outcome === 'succeeded')
    return [signed(store, 'invoice.paid', renderInvoice(inv, store.url))];
  sub.status = 'past_due';
  return [
    signed(store, 'invoice.payment_failed', renderInvoice(inv, store.url)),
    subscriptionUpdated(store, sub, before),
  ];
}

/**
 * Stripe retries an unpaid invoice (or the customer pays it). Paid: [invoice.paid] and, for a
 * past_due subscription, [customer.subscription.updated] back to active; declined again:
 * [invoice.payment_failed].
 */
export function retryInvoice(
  store: StripeStore,
  invoiceId: string,
  outcome: 'succeeded' | 'failed' = 'succeeded',
): SignedEvent[] {
  const inv = store.invoices.get(invoiceId);
  if (!inv) throw new Error(`stripe fake: unknown invoice ${invoiceId}`);
  attemptInvoicePayment(store, inv, outcome);
  if (outcome === 'failed') {
    return [signed(store, 'invoice.payment_failed', renderInvoice(inv, store.url))];
  }
  const events = [signed(store, 'invoice.paid', renderInvoice(inv, store.url))];
  const sub = store.subscriptions.get(inv.subscription);
  if (sub?.status === 'past_due') {
    const before = renderSubscription(sub);
    sub.status = 'active';
    events.push(subscriptionUpdated(store, sub, before));
  }
  return events;
}

/** An open session passes its expires_at unpaid: [checkout.session.expired]. */
export function expireCheckout(store: StripeStore, sessionId: string): SignedEvent[] {
  const s = store.sessions.get(sessionId);
  if (!s || s.status !== 'open') {
    throw new Error(`stripe fake: session ${sessionId} is ${s?.status ?? 'unknown'}, not open`);
  }
  s.status = 'expired';
  return [signed(store, 'checkout.session.expired', renderSession(s, store.url))];
}

/**
 * A delayed payment (completeCheckout with `delayed`) settles: paid gives
 * [checkout.session.async_payment_succeeded], declined [checkout.session.async_payment_failed].
 */
export function settleDelayedPayment(
  store: StripeStore,
  sessionId: string,
  outcome: 'succeeded' | 'failed',
): SignedEvent[] {
  const s = store.sessions.get(sessionId);
  const pi = s?.paymentIntent ? store.paymentIntents.get(s.paymentIntent) : undefined;
  if (!s || !pi || s.status !== 'complete' || s.paymentStatus !== 'unpaid') {
    throw new Error(`stripe fake: session ${sessionId} has no delayed payment to settle`);
  }
  settlePayment(store, pi, outcome === 'succeeded');
  if (outcome === 'succeeded') s.paymentStatus = 'paid';
  const type = `checkout.session.async_payment_${outcome}`;
  return [signed(store, type, renderSession(s, store.url))];
}

/**
 * The charge behind a payment: `ref` is a checkout session (cs_…), an invoice (in_…), a payment
 * intent (pi_…) or the charge itself (ch_…).
 */
export function chargeOf(store: StripeStore, ref: string): ChargeState {
  let pi: string | null | undefined = ref.startsWith('pi_') ? ref : undefined;
  if (ref.startsWith('ch_')) pi = store.charges.get(ref)?.paymentIntent;
  if (ref.startsWith('in_')) pi = paymentOfInvoice(store, ref)?.paymentIntent;
  if (ref.startsWith('cs_')) {
    const s = store.sessions.get(ref);
    pi =
      s?.paymentIntent ?? (s?.invoice ? paymentOfInvoice(store, s.invoice)?.paymentIntent : null);
  }
  const intent = pi ? store.paymentIntents.get(pi) : undefined;
  const charge = intent ? store.charges.get(intent.latestCharge) : undefined;
  if (!charge) throw new Error(`stripe fake: no charge behind ${ref}`);
  return charge;
}

/** Refunds (fully by default) the charge behind a payment (see chargeOf): [charge.refunded]. */
export function refundPayment(
  store: StripeStore,
  ref: string,
  amountCents?: number,
): SignedEvent[] {
  const ch = chargeOf(store, ref);
  const remaining = ch.amount - ch.amountRefunded;
  const amount = amountCents ?? remaining;
  if (!Number.isInteger(amount) || amount <= 0 || amount > remaining) {
    throw new Error(`stripe fake: cannot refund ${amount} of ${remaining} remaining on ${ch.id}`);
  }
  const previous = { amount_refunded: ch.amountRefunded, refunded: false };
  ch.amountRefunded += amount;
  return [signed(store, 'charge.refunded', renderCharge(ch, store.url), previous)];
}

/** The cardholder's bank disputes the charge behind a payment: [charge.dispute.created]. */
export function disputePayment(
  store: StripeStore,
  ref: string,
  opts: { amountCents?: number; reason?: string; inquiry?: boolean } = {},
): SignedEvent[] {
  const dispute = openDispute(store, chargeOf(store, ref).id, opts);
  return [signed(store, 'charge.dispute.created', renderDispute(dispute))];
}

/** The dispute is decided: [charge.dispute.closed] with status won, lost or warning_closed. */
export function closeDispute(
  store: StripeStore,
  disputeId: string,
  outcome: 'won' | 'lost' | 'warning_closed',
): SignedEvent[] {
  const previous = { status: store.disputes.get(disputeId)?.status };
  const dispute = decideDispute(store, disputeId, outcome);
  return [signed(store, 'charge.dispute.closed', renderDispute(dispute), previous)];
}

function subscriptionUpdated(
  store: StripeStore,
  sub: SubscriptionState,
  before: ReturnType<typeof renderSubscription>,
): SignedEvent {
  const after = renderSubscription(sub);
  return signed(store, 'customer.subscription.updated', after, diffTopLevel(before, after));
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
