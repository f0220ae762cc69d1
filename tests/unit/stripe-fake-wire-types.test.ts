/**
 * The Stripe fake cannot drift from the API version the `stripe` package pins: every webhook it
 * sends (envelope and object) and every object it answers with is checked against the package's
 * own TypeScript declarations (tests/helpers/stripe-wire-types.ts reads them with the TypeScript
 * compiler). A payload must carry every property the type requires and none it does not declare.
 */
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { createSession } from '../fakes/stripe/checkout-sessions.ts';
import { renderCustomer } from '../fakes/stripe/customers.ts';
import type { FormObject } from '../fakes/stripe/form.ts';
import { renderInvoicePayment } from '../fakes/stripe/invoice-payments.ts';
import { renderCharge, renderPaymentIntent } from '../fakes/stripe/payments.ts';
import {
  closeDispute,
  completeCheckout,
  disputePayment,
  expireCheckout,
  refundPayment,
  renewSubscription,
  retryInvoice,
  settleDelayedPayment,
} from '../fakes/stripe/simulations.ts';
import { createStore } from '../fakes/stripe/state.ts';
import type { SignedEvent } from '../fakes/stripe/types.ts';
import { eventInterfaceOf, problems } from '../helpers/stripe-wire-types.ts';

const lineItem = (recurring: boolean): FormObject => ({
  quantity: '1',
  price_data: {
    currency: 'usd',
    unit_amount: '2990',
    product_data: { name: 'Pro' },
    ...(recurring ? { recurring: { interval: 'month' } } : {}),
  },
});

/** Every kind of delivery the fake makes, from one store: each simulation at least once. */
function everyDelivery() {
  const store = createStore();
  store.url = 'http://127.0.0.1:1';
  const session = (mode: 'payment' | 'subscription') =>
    String(
      createSession(store, {
        mode,
        success_url: 'https://app.example/ok',
        cancel_url: 'https://app.example/cancel',
        metadata: { userId: 'u1' },
        line_items: [lineItem(mode === 'subscription')],
      }).id,
    );
  const events: SignedEvent[] = [];
  const pack = session('payment');
  events.push(...completeCheckout(store, pack));
  events.push(...refundPayment(store, pack, 500));
  const [created] = disputePayment(store, pack);
  events.push(created!);
  events.push(...closeDispute(store, String(created!.event.data.object.id), 'won'));

  const delayed = session('payment');
  events.push(...completeCheckout(store, delayed, {}, { delayed: true }));
  events.push(...settleDelayedPayment(store, delayed, 'failed'));
  const settled = session('payment');
  completeCheckout(store, settled, {}, { delayed: true });
  events.push(...settleDelayedPayment(store, settled, 'succeeded'));
  events.push(...expireCheckout(store, session('payment')));

  const plan = session('subscription');
  const started = completeCheckout(store, plan);
  events.push(...started);
  const subscriptionId = String(started[0]!.event.data.object.id);
  events.push(...renewSubscription(store, subscriptionId));
  const failed = renewSubscription(store, subscriptionId, 'failed');
  events.push(...failed);
  const invoiceId = String(failed[0]!.event.data.object.id);
  events.push(...retryInvoice(store, invoiceId));
  events.push(...refundPayment(store, invoiceId));
  return { store, events };
}

describe('the Stripe fake against the stripe package types', () => {
  const { store, events } = everyDelivery();

  it('sends every event type billing handles', () => {
    expect(new Set(events.map((e) => e.event.type))).toEqual(
      new Set([
        'checkout.session.completed',
        'checkout.session.async_payment_succeeded',
        'checkout.session.async_payment_failed',
        'checkout.session.expired',
        'customer.subscription.created',
        'customer.subscription.updated',
        'invoice.paid',
        'invoice.payment_failed',
        'charge.refunded',
        'charge.dispute.created',
        'charge.dispute.closed',
      ]),
    );
  });

  it.each(events.map((e) => [e.event.type, e] as const))(
    '%s: the event and its object match the declared type',
    (type, signed) => {
      expect(signed.event.api_version).toBe(Stripe.API_VERSION);
      expect(problems(signed.event, eventInterfaceOf(type))).toEqual([]);
    },
  );

  it('answers with payment intents, charges, invoice payments and customers of the declared shape', () => {
    const objects: Array<[object, string]> = [
      ...[...store.paymentIntents.values()].map((pi) => [renderPaymentIntent(pi), 'PaymentIntent']),
      ...[...store.charges.values()].map((ch) => [renderCharge(ch, store.url), 'Charge']),
      ...[...store.invoicePayments.values()].map((ip) => [
        renderInvoicePayment(ip),
        'InvoicePayment',
      ]),
      ...[...store.customers.values()].map((c) => [renderCustomer(c), 'Customer']),
    ] as Array<[object, string]>;
    expect(new Set(objects.map(([, type]) => type)).size).toBe(4);
    for (const [object, type] of objects) expect(problems(object, type)).toEqual([]);
  });

  it('fails a payload with an undeclared field, a missing required one or a null where none is allowed', () => {
    const charge = structuredClone(
      events.find((e) => e.event.type === 'charge.refunded')!.event.data.object,
    );
    expect(problems(charge, 'Charge')).toEqual([]);
    const bogus = { ...charge, invoice: 'in_123' };
    expect(problems(bogus, 'Charge')).toEqual(['Charge.invoice is not declared by the type']);
    const { source: _source, ...missing } = charge;
    expect(problems(missing, 'Charge')).toEqual(['Charge.source is required but missing']);
    expect(problems({ ...charge, amount: null }, 'Charge')).toEqual([
      'Charge.amount is null, which the type does not allow',
    ]);
    const invoice = events.find((e) => e.event.type === 'invoice.paid')!.event;
    const nested = structuredClone(invoice) as unknown as {
      data: { object: { lines: { data: object[] } } };
    };
    nested.data.object.lines.data[0] = { ...nested.data.object.lines.data[0], total_count: 1 };
    expect(problems(nested, 'InvoicePaidEvent')).toEqual([
      'InvoicePaidEvent.data.object.lines.data[0].total_count is not declared by the type',
    ]);
  });
});
