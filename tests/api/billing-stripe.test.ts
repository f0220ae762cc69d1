import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCreditsService } from '../../server/domains/credits/service.ts';
import { startStripeFake, type SignedEvent, type StripeFake } from '../fakes/stripe/index.ts';
import { bearer, createTestApp, creditBalance, signInLocal, type TestApp } from '../helpers/app.ts';
import { CHECKOUT_RETURN_URLS, requestCheckout, stripeEnv } from '../helpers/billing.ts';
import { databaseKinds } from '../helpers/database.ts';

describe.each(databaseKinds)('billing through Stripe (fake) on %s', (kind) => {
  let stripe: StripeFake;
  let t: TestApp;

  beforeAll(async () => {
    stripe = await startStripeFake();
    t = await createTestApp(kind, {
      env: stripeEnv(stripe),
    });
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  const deliver = (signed: SignedEvent) =>
    t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': signed.header },
      payload: signed.payload,
    });
  const byType = (events: SignedEvent[], type: string) => {
    const found = events.find((e) => e.event.type === type);
    if (!found) throw new Error(`no ${type} in ${events.map((e) => e.event.type).join(', ')}`);
    return found;
  };
  const balance = (token: string) => creditBalance(t.app, token);
  const buy = async (token: string, payload: object) => {
    const res = await requestCheckout(t.app, token, payload);
    expect(res.statusCode).toBe(200);
    return res.json() as { url: string; sessionId: string };
  };
  const validate = (userId: string) => createCreditsService(t.database.db).validate(userId);

  it('creates a Stripe Checkout Session priced from the catalogue, with ids in metadata', async () => {
    const ann = await signInLocal(t.app, 'ann-stripe@example.com');
    const pack = await buy(ann.token, {
      type: 'credits',
      package_id: 'starter',
      amount: 19.9,
      currency: 'usd',
    });
    expect(pack.url).toBe(`${stripe.url}/c/pay/${pack.sessionId}`);
    // The buyer's Stripe customer is made once, before the first session, and named by it.
    const customerRequests = stripe.requests.filter(
      (r) => r.method === 'POST' && r.path === '/v1/customers',
    );
    expect(customerRequests.map((r) => r.body)).toEqual([
      { email: 'ann-stripe@example.com', metadata: { userId: ann.user.id } },
    ]);
    const packRequest = stripe.requests.find(
      (r) => r.method === 'POST' && r.path === '/v1/checkout/sessions',
    );
    const customer = packRequest?.body.customer;
    expect(customer).toMatch(/^cus_/);
    expect(packRequest?.body).not.toHaveProperty('customer_email');
    expect(packRequest?.body).toMatchObject({
      mode: 'payment',
      client_reference_id: ann.user.id,
      success_url: CHECKOUT_RETURN_URLS.success_url,
      line_items: [{ quantity: '1', price_data: { currency: 'usd', unit_amount: '1990' } }],
      metadata: { userId: ann.user.id, kind: 'credits', itemId: 'starter' },
    });

    await buy(ann.token, {
      type: 'subscription',
      plan_id: 'pro+',
      billing_cycle: 'yearly',
      amount: 959,
    });
    const subRequest = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1);
    expect(subRequest?.body).toMatchObject({
      mode: 'subscription',
      customer,
      line_items: [{ price_data: { unit_amount: '95900', recurring: { interval: 'year' } } }],
      subscription_data: {
        metadata: { userId: ann.user.id, planId: 'pro+', billingCycle: 'yearly' },
      },
    });
  });

  it('grants a pack once on checkout.session.completed, even delivered 10 times (4 at once)', async () => {
    const ann = await signInLocal(t.app, 'ann-replay@example.com');
    const { sessionId } = await buy(ann.token, { type: 'credits', package_id: 'starter' });
    const completed = byType(stripe.completeCheckout(sessionId), 'checkout.session.completed');
    const concurrent = await Promise.all(Array.from({ length: 4 }, () => deliver(completed)));
    for (const res of concurrent) expect(res.statusCode).toBe(200);
    for (let i = 0; i < 6; i++) expect((await deliver(completed)).statusCode).toBe(200);
    expect(await balance(ann.token)).toBe(330);
    expect((await validate(ann.user.id)).valid).toBe(true);
    const state = await t.app.inject({
      url: `/api/stripe/checkout/${sessionId}`,
      headers: bearer(ann.token),
    });
    expect(state.json().data.status).toBe('paid');
  });

  it.each([
    [
      'a forged signature',
      (s: StripeFake, e: SignedEvent) => s.sign(e.event, { secret: 'whsec_someone_else' }),
    ],
    [
      'a stale timestamp',
      (s: StripeFake, e: SignedEvent) =>
        s.sign(e.event, { timestamp: Math.floor(Date.now() / 1000) - 600 }),
    ],
    ['no signature', (_s: StripeFake, e: SignedEvent) => ({ ...e, header: '' })],
  ])('refuses %s with 400 and grants nothing', async (_name, forge) => {
    const ann = await signInLocal(
      t.app,
      `ann-forged-${Math.random().toString(36).slice(2)}@example.com`,
    );
    const { sessionId } = await buy(ann.token, { type: 'credits', package_id: 'basic' });
    const completed = byType(stripe.completeCheckout(sessionId), 'checkout.session.completed');
    const res = await deliver(forge(stripe, completed));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false });
    expect(await balance(ann.token)).toBe(0);
    // The genuine delivery still works afterwards.
    expect((await deliver(completed)).statusCode).toBe(200);
    expect(await balance(ann.token)).toBe(950);
  });

  it('ends in the right state when invoice.paid arrives before checkout.session.completed', async () => {
    const ann = await signInLocal(t.app, 'ann-order@example.com');
    const { sessionId } = await buy(ann.token, {
      type: 'subscription',
      plan_id: 'lite',
      billing_cycle: 'monthly',
    });
    const events = stripe.completeCheckout(sessionId);
    expect((await deliver(byType(events, 'invoice.paid'))).statusCode).toBe(200);
    expect(await balance(ann.token)).toBe(590);
    expect((await deliver(byType(events, 'checkout.session.completed'))).statusCode).toBe(200);
    expect((await deliver(byType(events, 'customer.subscription.created'))).statusCode).toBe(200);
    expect(await balance(ann.token)).toBe(590);
    const status = await t.app.inject({
      url: '/api/stripe/subscription/status',
      headers: bearer(ann.token),
    });
    expect(status.json()).toMatchObject({
      hasActiveSubscription: true,
      subscription: { planId: 'lite', billingCycle: 'monthly', status: 'active' },
    });

    // A renewal (billing_reason subscription_cycle) grants the plan's credits again, once.
    const subscriptionId = String(
      byType(events, 'customer.subscription.created').event.data.object.id,
    );
    const renewal = byType(stripe.renewSubscription(subscriptionId), 'invoice.paid');
    expect(renewal.event.data.object.billing_reason).toBe('subscription_cycle');
    await deliver(renewal);
    await deliver(renewal);
    expect(await balance(ann.token)).toBe(1180);
    const renewed = await t.app.inject({
      url: '/api/stripe/subscription/status',
      headers: bearer(ann.token),
    });
    expect(renewed.json().subscription.currentPeriodEnd).toBeGreaterThan(
      status.json().subscription.currentPeriodEnd,
    );

    // Cancel: at Stripe and locally; Stripe's deleted event afterwards changes nothing.
    const cancel = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/subscription/cancel',
      headers: bearer(ann.token),
      payload: { immediately: true },
    });
    expect(cancel.statusCode).toBe(200);
    expect(
      stripe.requests.some(
        (r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${subscriptionId}`,
      ),
    ).toBe(true);
    for (const e of stripe.takeEvents()) expect((await deliver(e)).statusCode).toBe(200);
    const after = await t.app.inject({
      url: '/api/stripe/subscription/status',
      headers: bearer(ann.token),
    });
    expect(after.json()).toMatchObject({ hasActiveSubscription: false, subscription: null });
    expect((await validate(ann.user.id)).valid).toBe(true);
  });

  it('fulfills on the success return when the webhook is late, and the webhook then grants nothing', async () => {
    const ann = await signInLocal(t.app, 'ann-late@example.com');
    const { sessionId } = await buy(ann.token, { type: 'credits', package_id: 'standard' });
    const events = stripe.completeCheckout(sessionId);
    const state = await t.app.inject({
      url: `/api/stripe/checkout/${sessionId}`,
      headers: bearer(ann.token),
    });
    expect(state.json().data).toMatchObject({ status: 'paid', credits: 2200 });
    expect(await balance(ann.token)).toBe(2200);
    await deliver(byType(events, 'checkout.session.completed'));
    expect(await balance(ann.token)).toBe(2200);
  });

  it('takes back the credits of a refunded pack without going below zero, recording the shortfall', async () => {
    const ann = await signInLocal(t.app, 'ann-refund@example.com');
    const { sessionId } = await buy(ann.token, { type: 'credits', package_id: 'starter' });
    await deliver(byType(stripe.completeCheckout(sessionId), 'checkout.session.completed'));
    const credits = createCreditsService(t.database.db);
    await credits.apply({
      userId: ann.user.id,
      amount: -300,
      sourceType: 'test_spend',
      sourceId: 'refund-spend',
      description: 'Spent',
    });
    expect(await balance(ann.token)).toBe(30);

    const refund = byType(stripe.refundCheckout(sessionId), 'charge.refunded');
    expect((await deliver(refund)).statusCode).toBe(200);
    expect((await deliver(refund)).statusCode).toBe(200);
    expect(await balance(ann.token)).toBe(0);
    const { checkoutSessions } = await import('../../server/db/schema.ts');
    const { eq } = await import('drizzle-orm');
    const [row] = await t.database.db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.id, sessionId));
    expect(row).toMatchObject({ creditsRefunded: 30, creditsUnrecovered: 300 });
    expect((await validate(ann.user.id)).valid).toBe(true);
  });

  it('a partial refund takes back a proportional share', async () => {
    const ann = await signInLocal(t.app, 'ann-partial@example.com');
    const { sessionId } = await buy(ann.token, { type: 'credits', package_id: 'basic' });
    await deliver(byType(stripe.completeCheckout(sessionId), 'checkout.session.completed'));
    await deliver(byType(stripe.refundCheckout(sessionId, 2495), 'charge.refunded'));
    expect(await balance(ann.token)).toBe(950 - 475);
  });

  it('acknowledges unknown event types with 200 and changes nothing', async () => {
    const res = await deliver(
      stripe.sign(stripe.event('customer.tax_id.created', { id: 'txi_1', object: 'tax_id' })),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ received: true });
  });
});
