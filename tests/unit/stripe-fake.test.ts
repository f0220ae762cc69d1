/**
 * The Stripe fake driven through the real `stripe` SDK: if these pass, the SDK accepts the fake's
 * answers, errors and webhook signatures exactly as it would Stripe's.
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStripeFake } from '../fakes/stripe/index.ts';
import type { SignedEvent, StripeFake } from '../fakes/stripe/index.ts';

let fake: StripeFake;
let stripe: Stripe;

const clientFor = (key: string): Stripe =>
  new Stripe(key, { host: '127.0.0.1', port: fake.port, protocol: 'http', maxNetworkRetries: 0 });

const paymentParams = (): Stripe.Checkout.SessionCreateParams => ({
  mode: 'payment',
  success_url: 'https://app.example/billing/success?session_id={CHECKOUT_SESSION_ID}',
  cancel_url: 'https://app.example/billing/cancel',
  client_reference_id: 'user-42',
  customer_email: 'ada@example.com',
  metadata: { userId: 'user-42', packId: 'pack-100' },
  line_items: [
    {
      quantity: 1,
      price_data: { currency: 'usd', unit_amount: 990, product_data: { name: '100 credits' } },
    },
  ],
});

const subscriptionParams = (): Stripe.Checkout.SessionCreateParams => ({
  mode: 'subscription',
  success_url: 'https://app.example/billing/success',
  cancel_url: 'https://app.example/billing/cancel',
  metadata: { userId: 'user-7', planId: 'pro' },
  subscription_data: { metadata: { userId: 'user-7', planId: 'pro' } },
  line_items: [
    {
      quantity: 1,
      price_data: {
        currency: 'usd',
        unit_amount: 2990,
        recurring: { interval: 'month' },
        product_data: { name: 'Pro plan' },
      },
    },
  ],
});

/** Verifies a delivery exactly as our webhook route must: raw payload, header, secret, 300 s. */
const verify = (signed: SignedEvent): Stripe.Event =>
  stripe.webhooks.constructEvent(signed.payload, signed.header, fake.webhookSecret, 300);

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (e: unknown) => e,
  );
}

beforeAll(async () => {
  fake = await startStripeFake();
  stripe = clientFor(fake.secretKey);
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => {
  fake.takeEvents();
});

describe('checkout sessions over the wire', () => {
  it('creates a payment-mode session whose fields round-trip', async () => {
    const session = await stripe.checkout.sessions.create(paymentParams());

    expect(session.id).toMatch(/^cs_test_/);
    expect(session).toMatchObject({
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: 990,
      amount_subtotal: 990,
      currency: 'usd',
      customer: null,
      customer_email: 'ada@example.com',
      client_reference_id: 'user-42',
      metadata: { userId: 'user-42', packId: 'pack-100' },
      success_url: 'https://app.example/billing/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://app.example/billing/cancel',
      subscription: null,
      invoice: null,
      payment_intent: null,
    });
    expect(session.url).toBe(`${fake.url}/c/pay/${session.id}`);
    expect(session.expires_at).toBeGreaterThan(session.created);

    // The SDK form-encodes nested params with bracket notation; the fake parses them back.
    const request = fake.requests.at(-1);
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v1/checkout/sessions',
      stripeVersion: Stripe.API_VERSION,
      body: {
        mode: 'payment',
        metadata: { userId: 'user-42', packId: 'pack-100' },
        line_items: [
          {
            quantity: '1',
            price_data: {
              currency: 'usd',
              unit_amount: '990',
              product_data: { name: '100 credits' },
            },
          },
        ],
      },
    });
    expect(request?.idempotencyKey).toMatch(/^stripe-node-retry-/);
  });

  it('creates a subscription-mode session and retrieves it', async () => {
    const created = await stripe.checkout.sessions.create(subscriptionParams());
    expect(created).toMatchObject({ mode: 'subscription', amount_total: 2990, status: 'open' });

    const retrieved = await stripe.checkout.sessions.retrieve(created.id);
    expect(retrieved).toEqual(created);

    const withItems = await stripe.checkout.sessions.retrieve(created.id, {
      expand: ['line_items'],
    });
    expect(withItems.line_items?.data[0]?.price?.recurring?.interval).toBe('month');
  });

  it('answers validation failures as StripeInvalidRequestError with message and param', async () => {
    const params = subscriptionParams();
    params.mode = 'payment';
    delete params.subscription_data;
    const err = await rejection(stripe.checkout.sessions.create(params));
    expect(err).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(err).toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 400,
      param: 'line_items[0][price_data][recurring]',
      message: expect.stringContaining('recurring price') as unknown,
    });

    const noSuccessUrl = paymentParams();
    delete noSuccessUrl.success_url;
    await expect(stripe.checkout.sessions.create(noSuccessUrl)).rejects.toMatchObject({
      param: 'success_url',
      code: 'parameter_missing',
      message: 'Missing required param: success_url.',
    });

    const unknown = { ...paymentParams(), colour: 'red' } as Stripe.Checkout.SessionCreateParams;
    await expect(stripe.checkout.sessions.create(unknown)).rejects.toMatchObject({
      param: 'colour',
      message: 'Received unknown parameter: colour',
    });
  });

  it('answers an unknown session with resource_missing', async () => {
    const err = await rejection(stripe.checkout.sessions.retrieve('cs_test_nope'));
    expect(err).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(err).toMatchObject({ statusCode: 404, code: 'resource_missing' });
  });

  it('rejects a wrong API key with StripeAuthenticationError', async () => {
    const err = await rejection(
      clientFor('sk_test_wrong_key_123456').checkout.sessions.create(paymentParams()),
    );
    expect(err).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect((err as Error).message).toMatch(/^Invalid API Key provided: sk_test_\*+3456$/);
  });

  it('replays a POST retried with the same idempotency key', async () => {
    const key = `test-${Date.now()}`;
    const first = await stripe.checkout.sessions.create(paymentParams(), { idempotencyKey: key });
    const again = await stripe.checkout.sessions.create(paymentParams(), { idempotencyKey: key });
    expect(again.id).toBe(first.id);
    await expect(
      stripe.checkout.sessions.create(subscriptionParams(), { idempotencyKey: key }),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it('expires an open session and reports checkout.session.expired', async () => {
    const session = await stripe.checkout.sessions.create(paymentParams());
    const expired = await stripe.checkout.sessions.expire(session.id);
    expect(expired).toMatchObject({ status: 'expired', url: null });
    const [evt] = fake.takeEvents();
    expect(evt && verify(evt).type).toBe('checkout.session.expired');
  });
});

describe('what Stripe does after the buyer pays', () => {
  it('payment mode: one signed checkout.session.completed with the payment intent', async () => {
    const session = await stripe.checkout.sessions.create(paymentParams());
    const events = fake.completeCheckout(session.id);

    expect(events.map((e) => e.event.type)).toEqual(['checkout.session.completed']);
    const [completed] = events.map(verify);
    const object = completed?.data.object as Stripe.Checkout.Session;
    expect(object).toMatchObject({
      id: session.id,
      status: 'complete',
      payment_status: 'paid',
      metadata: { userId: 'user-42', packId: 'pack-100' },
      client_reference_id: 'user-42',
      customer_details: { email: 'ada@example.com' },
    });
    expect(object.payment_intent).toMatch(/^pi_/);
    expect(completed?.api_version).toBe(Stripe.API_VERSION);

    const retrieved = await stripe.checkout.sessions.retrieve(session.id, {
      expand: ['payment_intent'],
    });
    expect((retrieved.payment_intent as Stripe.PaymentIntent).status).toBe('succeeded');

    const [refunded] = fake.refundCheckout(session.id, 400).map(verify);
    expect(refunded?.type).toBe('charge.refunded');
    expect(refunded?.data.object).toMatchObject({
      object: 'charge',
      amount: 990,
      amount_refunded: 400,
      refunded: false,
      payment_intent: object.payment_intent,
    });
    const [rest] = fake.refundCheckout(session.id).map(verify);
    expect(rest?.data.object).toMatchObject({ amount_refunded: 990, refunded: true });
  });

  it('subscription mode: subscription.created, invoice.paid, then checkout.session.completed', async () => {
    const session = await stripe.checkout.sessions.create(subscriptionParams());
    const events = fake.completeCheckout(session.id).map(verify);

    expect(events.map((e) => e.type)).toEqual([
      'customer.subscription.created',
      'invoice.paid',
      'checkout.session.completed',
    ]);
    const [subEvt, invEvt, doneEvt] = events;
    const sub = subEvt?.data.object as Stripe.Subscription;
    const invoice = invEvt?.data.object as Stripe.Invoice;
    const done = doneEvt?.data.object as Stripe.Checkout.Session;

    expect(sub).toMatchObject({ status: 'active', metadata: { userId: 'user-7', planId: 'pro' } });
    expect(sub.items.data[0]?.price.recurring?.interval).toBe('month');
    const item = sub.items.data[0];
    expect(item && item.current_period_end > item.current_period_start).toBe(true);

    expect(invoice).toMatchObject({
      billing_reason: 'subscription_create',
      status: 'paid',
      amount_paid: 2990,
      currency: 'usd',
      customer: sub.customer,
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: sub.id, metadata: { planId: 'pro' } },
      },
    });
    expect(invoice.lines.data[0]?.period).toEqual({
      start: item?.current_period_start,
      end: item?.current_period_end,
    });

    expect(done).toMatchObject({
      status: 'complete',
      payment_status: 'paid',
      subscription: sub.id,
      invoice: invoice.id,
      payment_intent: null,
    });
    expect(done.customer).toMatch(/^cus_/);

    const fetched = await stripe.subscriptions.retrieve(sub.id);
    expect(fetched.items.data[0]?.current_period_end).toBe(item?.current_period_end);
  });

  it('renewSubscription bills the next period with billing_reason subscription_cycle', async () => {
    const session = await stripe.checkout.sessions.create(subscriptionParams());
    const [created, firstPaid] = fake.completeCheckout(session.id).map(verify);
    const sub = created?.data.object as Stripe.Subscription;
    const firstInvoice = firstPaid?.data.object as Stripe.Invoice;

    const renewed = fake.renewSubscription(sub.id).map(verify);
    expect(renewed.map((e) => e.type)).toEqual(['invoice.paid']);
    const invoice = renewed[0]?.data.object as Stripe.Invoice;
    expect(invoice.billing_reason).toBe('subscription_cycle');
    expect(invoice.id).not.toBe(firstInvoice.id);
    const firstLine = firstInvoice.lines.data[0]?.period;
    const nextLine = invoice.lines.data[0]?.period;
    expect(nextLine?.start).toBe(firstLine?.end);
    expect(nextLine && firstLine && nextLine.end > firstLine.end).toBe(true);

    const fetched = await stripe.subscriptions.retrieve(sub.id);
    expect(fetched.items.data[0]?.current_period_start).toBe(nextLine?.start);
    expect(fetched.latest_invoice).toBe(invoice.id);
  });

  it('cancels a subscription through the SDK and reports customer.subscription.deleted', async () => {
    const session = await stripe.checkout.sessions.create(subscriptionParams());
    const sub = fake.completeCheckout(session.id)[0]?.event.data.object as { id: string };

    const canceled = await stripe.subscriptions.cancel(sub.id);
    expect(canceled).toMatchObject({ id: sub.id, status: 'canceled' });
    expect(canceled.canceled_at).toEqual(expect.any(Number));
    expect(canceled.ended_at).toEqual(expect.any(Number));

    const [deleted] = fake.takeEvents().map(verify);
    expect(deleted?.type).toBe('customer.subscription.deleted');
    expect(deleted?.request?.idempotency_key).toBeNull(); // DELETEs carry no idempotency key
    expect(deleted?.request?.id).toMatch(/^req_/);

    // Stripe treats a canceled subscription as gone for a second cancel.
    await expect(stripe.subscriptions.cancel(sub.id)).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
  });

  it('cancel_at_period_end updates the subscription, and the period end ends it', async () => {
    const session = await stripe.checkout.sessions.create(subscriptionParams());
    const sub = fake.completeCheckout(session.id)[0]?.event.data.object as { id: string };

    const updated = await stripe.subscriptions.update(sub.id, { cancel_at_period_end: true });
    expect(updated).toMatchObject({ status: 'active', cancel_at_period_end: true });
    expect(updated.cancel_at).toBe(updated.items.data[0]?.current_period_end);
    const [evt] = fake.takeEvents().map(verify);
    expect(evt?.type).toBe('customer.subscription.updated');
    expect(evt?.data.previous_attributes).toMatchObject({ cancel_at_period_end: false });

    const [ended] = fake.renewSubscription(sub.id).map(verify);
    expect(ended?.type).toBe('customer.subscription.deleted');
    expect(ended?.data.object).toMatchObject({ status: 'canceled' });
  });
});

describe('webhook signatures', () => {
  it('fails a forged signature and a stale timestamp', () => {
    const evt = fake.event('invoice.paid', { id: 'in_123', object: 'invoice' });
    expect(evt).toMatchObject({
      object: 'event',
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    });
    expect(evt.id).toMatch(/^evt_/);

    expect(verify(fake.sign(evt)).id).toBe(evt.id);
    expect(() => verify(fake.sign(evt, { secret: 'whsec_other' }))).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
    expect(() =>
      verify(fake.sign(evt, { timestamp: Math.floor(Date.now() / 1000) - 600 })),
    ).toThrow(/Timestamp outside the tolerance zone/);
  });
});
