/**
 * A local Stripe that speaks the real v1 wire format over real HTTP: form-encoded requests with
 * bracket notation, pretty-printed JSON answers, Stripe's error envelope, idempotency keys and
 * request ids. Our production adapter talks to it through the real `stripe` SDK
 * (`new Stripe(fake.secretKey, { host: '127.0.0.1', port: fake.port, protocol: 'http' })`), so
 * tests exercise the same encoding, error classes and webhook verification as production.
 *
 * It also plays the part of Stripe after the buyer leaves our site: `completeCheckout` (paid at
 * once or by a delayed method), `settleDelayedPayment`, `expireCheckout`, `renewSubscription`
 * (paid or declined), `retryInvoice`, `refundPayment`, `disputePayment` and `closeDispute` mutate
 * the stored objects the way Stripe does and return the webhook deliveries Stripe would send,
 * signed with the endpoint secret.
 *
 * Objects follow API version 2026-10-28.endive (the SDK's pinned version): subscription periods
 * live on the items, invoices point at their subscription through `parent.subscription_details`,
 * and an invoice's payment intent is found through `/v1/invoice_payments`.
 * tests/unit/stripe-fake-wire-types.test.ts checks every payload against the SDK's declarations.
 *
 * One module per resource (checkout-sessions, customers, subscriptions, invoices, payments,
 * prices), the HTTP server and router, the form encoding, events and webhooks, and what happens
 * on Stripe's side after the buyer leaves (simulations.ts).
 */
import { closeServer, listen } from '../http.ts';
import {
  portalCancel,
  portalSessionsOf,
  portalSwitchPlan,
  portalUpdatePaymentMethod,
} from './billing-portal.ts';
import { deliver, event, sign } from './events.ts';
import { createStripeServer } from './server.ts';
import {
  chargeOf,
  closeDispute,
  completeCheckout,
  disputePayment,
  expireCheckout,
  refundPayment,
  renewSubscription,
  retryInvoice,
  settleDelayedPayment,
} from './simulations.ts';
import { createStore } from './state.ts';
import type { StripeFake } from './types.ts';

export type { SignedEvent, StripeEventJson, StripeFake, StripeFakeRequest } from './types.ts';

/** Starts a fake Stripe on 127.0.0.1 with a random port. */
export async function startStripeFake(): Promise<StripeFake> {
  const store = createStore();
  const server = createStripeServer(store);
  const { url, port } = await listen(server);
  store.url = url;

  return {
    url,
    port,
    secretKey: store.secretKey,
    webhookSecret: store.webhookSecret,
    requests: store.requests,
    completeCheckout: (sessionId, buyer, opts) => completeCheckout(store, sessionId, buyer, opts),
    settleDelayedPayment: (sessionId, outcome) => settleDelayedPayment(store, sessionId, outcome),
    expireCheckout: (sessionId) => expireCheckout(store, sessionId),
    renewSubscription: (subscriptionId, outcome) =>
      renewSubscription(store, subscriptionId, outcome),
    retryInvoice: (invoiceId, outcome) => retryInvoice(store, invoiceId, outcome),
    refundCheckout: (sessionId, amountCents) => refundPayment(store, sessionId, amountCents),
    refundPayment: (ref, amountCents) => refundPayment(store, ref, amountCents),
    chargeOf: (ref) => {
      const charge = chargeOf(store, ref);
      return { id: charge.id, paymentIntent: charge.paymentIntent };
    },
    disputePayment: (ref, opts) => disputePayment(store, ref, opts),
    closeDispute: (disputeId, outcome) => closeDispute(store, disputeId, outcome),
    portalSessions: () => portalSessionsOf(store),
    portalSwitchPlan: (subscriptionId, price) => portalSwitchPlan(store, subscriptionId, price),
    portalCancel: (subscriptionId) => portalCancel(store, subscriptionId),
    portalUpdatePaymentMethod: (customerId) => portalUpdatePaymentMethod(store, customerId),
    takeEvents() {
      const out = store.pending;
      store.pending = [];
      return out;
    },
    sign: (evt, opts) => sign(store, evt, opts),
    event: (type, object, previousAttributes) => event(store, type, object, previousAttributes),
    deliver,
    close: () => closeServer(server),
  };
}
