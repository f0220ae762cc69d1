/**
 * Invoice payments for the Stripe fake. Since API 2025-03-31 an invoice no longer names the
 * payment intent or charge that paid it: an InvoicePayment links the two, listed by
 * `GET /v1/invoice_payments?invoice=…` (or by `payment[payment_intent]`). Paying an invoice here
 * makes its payment intent and charge, and a retry after a failure charges the same intent again.
 */
import { invalid, noSuch } from './errors.ts';
import {
  checkKeys,
  readEnum,
  readHash,
  readInt,
  readString,
  type FormObject,
  type Json,
} from './form.ts';
import { newId, nowSeconds } from './ids.ts';
import { chargePayment, createPayment, type Payer } from './payments.ts';
import type { InvoicePaymentState, InvoiceState, StripeStore } from './state.ts';

export function renderInvoicePayment(ip: InvoicePaymentState): Json {
  return {
    id: ip.id,
    object: 'invoice_payment',
    amount_paid: ip.status === 'paid' ? ip.amount : null,
    amount_requested: ip.amount,
    created: ip.created,
    currency: ip.currency,
    invoice: ip.invoice,
    is_default: true,
    livemode: false,
    payment: { payment_intent: ip.paymentIntent, type: 'payment_intent' },
    status: ip.status,
    status_transitions: { canceled_at: null, paid_at: ip.paidAt },
  };
}

/** The invoice's payment link, if a payment was attempted. */
export function paymentOfInvoice(
  store: StripeStore,
  invoiceId: string,
): InvoicePaymentState | undefined {
  return [...store.invoicePayments.values()].find((ip) => ip.invoice === invoiceId);
}

/**
 * One automatic collection attempt on an open invoice: the first creates the payment intent and
 * its InvoicePayment, a later one (Stripe's retry) charges the same intent again.
 */
export function attemptInvoicePayment(
  store: StripeStore,
  inv: InvoiceState,
  outcome: 'succeeded' | 'failed',
): void {
  if (inv.status !== 'open') throw new Error(`stripe fake: invoice ${inv.id} is ${inv.status}`);
  const sub = store.subscriptions.get(inv.subscription);
  const customer = store.customers.get(inv.customer);
  const payer: Payer = {
    customer: inv.customer,
    email: customer?.email ?? 'buyer@example.com',
    name: customer?.name ?? 'Test Buyer',
    paymentMethod: sub?.defaultPaymentMethod ?? newId('pm'),
  };
  let link = paymentOfInvoice(store, inv.id);
  if (!link) {
    const pi = createPayment(
      store,
      payer,
      {
        amount: inv.total,
        currency: inv.currency,
        description:
          inv.billingReason === 'subscription_create'
            ? 'Subscription creation'
            : 'Subscription update',
        metadata: {},
        receiptEmail: null,
      },
      outcome,
    );
    link = {
      id: newId('inpay'),
      created: nowSeconds(),
      invoice: inv.id,
      paymentIntent: pi.id,
      amount: inv.total,
      currency: inv.currency,
      status: 'open',
      paidAt: null,
    };
    store.invoicePayments.set(link.id, link);
  } else {
    const pi = store.paymentIntents.get(link.paymentIntent);
    if (!pi) throw new Error(`stripe fake: invoice ${inv.id} lost its payment intent`);
    chargePayment(store, pi, payer, outcome);
  }
  inv.attemptCount += 1;
  if (outcome === 'succeeded') {
    const now = nowSeconds();
    inv.status = 'paid';
    inv.paidAt = now;
    link.status = 'paid';
    link.paidAt = now;
  }
}

/** `GET /v1/invoice_payments` (filters: invoice, payment, status) and `GET /v1/invoice_payments/{id}`. */
export function routeInvoicePayments(
  store: StripeStore,
  method: string,
  path: string,
  params: FormObject,
): Json | null {
  if (method !== 'GET') return null;
  const one = /^\/v1\/invoice_payments\/([^/]+)$/.exec(path);
  if (one) {
    checkKeys(params, '', ['expand'], ['expand']);
    const id = decodeURIComponent(one[1] ?? '');
    const found = store.invoicePayments.get(id);
    if (!found) throw noSuch('invoice_payment', id, 'id');
    return renderInvoicePayment(found);
  }
  if (path !== '/v1/invoice_payments') return null;
  checkKeys(
    params,
    '',
    [
      'created',
      'ending_before',
      'expand',
      'invoice',
      'limit',
      'payment',
      'starting_after',
      'status',
    ],
    ['expand', 'invoice', 'limit', 'payment', 'status'],
  );
  const invoice = readString(params, 'invoice', '');
  const status = readEnum(params, 'status', '', ['canceled', 'open', 'paid']);
  const limit = readInt(params, 'limit', '') ?? 10;
  const payment = readHash(params, 'payment', '');
  if (payment)
    checkKeys(
      payment,
      'payment',
      ['payment_intent', 'payment_record', 'type'],
      ['payment_intent', 'type'],
    );
  const paymentIntent = payment ? readString(payment, 'payment_intent', 'payment') : undefined;
  if (payment && readString(payment, 'type', 'payment') !== 'payment_intent') {
    throw invalid('Only payment[type]=payment_intent is supported.', 'payment[type]');
  }
  const data = [...store.invoicePayments.values()]
    .filter((ip) => invoice === undefined || ip.invoice === invoice)
    .filter((ip) => status === undefined || ip.status === status)
    .filter((ip) => paymentIntent === undefined || ip.paymentIntent === paymentIntent)
    .sort((a, b) => b.created - a.created)
    .slice(0, limit)
    .map(renderInvoicePayment);
  return { object: 'list', data, has_more: false, url: '/v1/invoice_payments' };
}
