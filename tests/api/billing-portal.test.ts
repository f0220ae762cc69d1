/**
 * Issue 37, item 2, with Stripe (the fake): "Manage billing" opens a customer portal session for
 * the user's Stripe customer, coming back to the page they were on; what the customer does in the
 * portal comes back as webhooks and is handled like our own changes (a plan switch, a cancel at
 * the end of the period, a new card), and the payments list shows each payment once.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptions, webhookEvents } from '../../server/db/schema.ts';
import { startStripeFake, type SignedEvent, type StripeFake } from '../fakes/stripe/index.ts';
import { bearer, createTestApp, creditBalance, signInLocal, type TestApp } from '../helpers/app.ts';
import { requestCheckout, SITE_ORIGIN, stripeEnv, injectStripeEvent } from '../helpers/billing.ts';
import { databaseKinds } from '../helpers/database.ts';

const DAY_MS = 86_400_000;

describe.each(databaseKinds)('the billing portal through Stripe (fake) on %s', (kind) => {
  let stripe: StripeFake;
  let t: TestApp;

  beforeAll(async () => {
    stripe = await startStripeFake();
    t = await createTestApp(kind, { env: stripeEnv(stripe) });
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  const deliver = async (events: SignedEvent[]) => {
    for (const signed of events) {
      const res = await injectStripeEvent(t.app, signed);
      expect(res.statusCode, res.body).toBe(200);
    }
  };
  const portal = (token: string, payload?: object, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/stripe/portal',
      headers: { ...bearer(token), ...headers },
      ...(payload ? { payload } : {}),
    });
  const portalRequests = () =>
    stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/billing_portal/sessions');
  const subscriptionRow = async (userId: string) => {
    const [row] = await t.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId));
    return row!;
  };
  /** Buys a plan and delivers what Stripe sends: the subscription's id. */
  const subscribe = async (token: string, planId: string, cycle: 'monthly' | 'yearly') => {
    const res = await requestCheckout(t.app, token, {
      type: 'subscription',
      plan_id: planId,
      billing_cycle: cycle,
    });
    expect(res.statusCode, res.body).toBe(200);
    const events = stripe.completeCheckout(res.json().sessionId);
    await deliver(events);
    return String(events[0]!.event.data.object.id);
  };

  it('refuses a signed-out request, and a user Stripe has no customer for, in their language', async () => {
    const signedOut = await t.app.inject({ method: 'POST', url: '/api/stripe/portal' });
    expect(signedOut.statusCode).toBe(401);
    const ann = await signInLocal(t.app, 'ann-portal-none@example.com');
    const en = await portal(ann.token);
    expect(en.statusCode).toBe(409);
    expect(en.json()).toMatchObject({
      success: false,
      code: 'NO_BILLING_HISTORY',
      message: expect.stringContaining('no billing history yet'),
    });
    const zh = await portal(ann.token, undefined, { 'accept-language': 'zh-CN' });
    expect(zh.json().message).toContain('账单记录');
    expect(portalRequests()).toHaveLength(0);
    const summary = await t.app.inject({ url: '/api/account/billing', headers: bearer(ann.token) });
    expect(summary.json().data).toEqual({ has_billing_history: false, provider: 'stripe' });
  });

  it("opens a portal session for the user's customer, returning to the page they came from", async () => {
    const bob = await signInLocal(t.app, 'bob-portal@example.com');
    await subscribe(bob.token, 'lite', 'monthly');
    const customer = stripe.requests.find((r) => r.path === '/v1/customers')!;
    expect(customer).toBeDefined();

    const fromBody = await portal(bob.token, { return_url: '/pricing' });
    expect(fromBody.statusCode, fromBody.body).toBe(200);
    expect(fromBody.json().data.provider).toBe('stripe');
    expect(fromBody.json().data.url).toMatch(new RegExp(`^${stripe.url}/p/session/test_`));
    const sent = portalRequests().at(-1)!.body;
    expect(sent.return_url).toBe(`${SITE_ORIGIN}/pricing`);
    expect(sent.locale).toBe('en');
    expect(String(sent.customer)).toMatch(/^cus_/);
    // The url opens the (fake) hosted portal, whose way back is the page given.
    const hosted = await fetch(fromBody.json().data.url);
    expect(hosted.status).toBe(200);
    expect(await hosted.text()).toContain(`href="${SITE_ORIGIN}/pricing"`);
    const session = stripe.portalSessions().at(-1)!;
    expect(session).toMatchObject({
      object: 'billing_portal.session',
      customer: sent.customer,
      url: fromBody.json().data.url,
    });

    // No return_url: the page the request came from (one of ours), in the page's language.
    await portal(bob.token, undefined, {
      referer: `${SITE_ORIGIN}/zh/account`,
      'accept-language': 'zh-CN,zh;q=0.9',
    });
    expect(portalRequests().at(-1)!.body).toMatchObject({
      return_url: `${SITE_ORIGIN}/zh/account`,
      locale: 'zh',
    });
    // A referer from elsewhere is ignored: back to the account.
    await portal(bob.token, undefined, { referer: 'https://evil.example/phish' });
    expect(portalRequests().at(-1)!.body.return_url).toBe(`${SITE_ORIGIN}/account`);

    const summary = await t.app.inject({
      url: '/api/account/billing',
      headers: bob.token ? bearer(bob.token) : {},
    });
    expect(summary.json().data).toEqual({ has_billing_history: true, provider: 'stripe' });
  });

  it.each(['https://evil.example/pricing', '//evil.example/x', 'javascript:alert(1)'])(
    'refuses the return address %s with 400 and makes no session',
    async (returnUrl) => {
      const cat = await signInLocal(
        t.app,
        `cat-${Math.random().toString(36).slice(2)}@example.com`,
      );
      await subscribe(cat.token, 'lite', 'monthly');
      const before = portalRequests().length;
      const res = await portal(cat.token, { return_url: returnUrl });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_RETURN_URL' });
      expect(res.json().message).toContain('return_url');
      expect(portalRequests()).toHaveLength(before);
    },
  );

  it('a cancel in the portal keeps the plan to the end of the period, then ends it granting nothing', async () => {
    const dan = await signInLocal(t.app, 'dan-portal-cancel@example.com');
    const subscriptionId = await subscribe(dan.token, 'pro', 'monthly');
    expect(await creditBalance(t.app, dan.token)).toBe(1340);

    const cancel = stripe.portalCancel(subscriptionId);
    await deliver(cancel);
    await deliver(cancel); // a replay changes nothing
    const row = await subscriptionRow(dan.user.id);
    expect(row).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, planId: 'pro' });
    const status = await t.app.inject({
      url: '/api/stripe/subscription/status',
      headers: bearer(dan.token),
    });
    // The pricing page shows when it ends instead of when it renews.
    expect(status.json()).toMatchObject({
      hasActiveSubscription: true,
      subscription: { planId: 'pro', cancelAtPeriodEnd: true },
    });

    const ended = stripe.renewSubscription(subscriptionId);
    expect(ended.map((e) => e.event.type)).toEqual(['customer.subscription.deleted']);
    await deliver(ended);
    expect((await subscriptionRow(dan.user.id)).status).toBe('canceled');
    expect(await creditBalance(t.app, dan.token)).toBe(1340);
  });

  it('a plan switch in the portal changes our plan now and grants the new plan from the next renewal', async () => {
    const eve = await signInLocal(t.app, 'eve-portal-switch@example.com');
    const subscriptionId = await subscribe(eve.token, 'lite', 'monthly');
    expect(await creditBalance(t.app, eve.token)).toBe(590);

    const switched = stripe.portalSwitchPlan(subscriptionId, {
      unitAmount: 5990,
      interval: 'month',
      productName: 'Pro',
      lookupKey: 'pro_monthly',
    });
    expect(switched.map((e) => e.event.type)).toEqual(['customer.subscription.updated']);
    await deliver(switched);
    expect(await subscriptionRow(eve.user.id)).toMatchObject({
      planId: 'pro',
      billingCycle: 'monthly',
      status: 'active',
    });
    // Nothing granted nor taken back for the period already paid.
    expect(await creditBalance(t.app, eve.token)).toBe(590);
    const status = await t.app.inject({
      url: '/api/stripe/subscription/status',
      headers: bearer(eve.token),
    });
    expect(status.json().subscription).toMatchObject({ planId: 'pro', billingCycle: 'monthly' });

    const renewal = stripe.renewSubscription(subscriptionId);
    expect(renewal[0]!.event.data.object).toMatchObject({ amount_paid: 5990 });
    await deliver(renewal);
    await deliver(renewal);
    expect(await creditBalance(t.app, eve.token)).toBe(590 + 1340);
    // The payments list names what each payment bought, before and after the switch.
    const listed = await t.app.inject({ url: '/api/account/payments', headers: bearer(eve.token) });
    expect(
      listed
        .json()
        .data.payments.map((p: Record<string, unknown>) => [
          p.item_id,
          p.billing_cycle,
          p.amount_cents,
        ]),
    ).toEqual([
      ['pro', 'monthly', 5990],
      ['lite', 'monthly', 2990],
    ]);
  });

  it('a switch to another interval is charged at once and grants the new plan once, whatever the order', async () => {
    const fay = await signInLocal(t.app, 'fay-portal-yearly@example.com');
    const subscriptionId = await subscribe(fay.token, 'pro', 'monthly');
    const events = stripe.portalSwitchPlan(subscriptionId, {
      unitAmount: 47_900,
      interval: 'year',
      productName: 'Pro (yearly)',
      metadata: { planId: 'pro' },
    });
    expect(events.map((e) => e.event.type)).toEqual([
      'customer.subscription.updated',
      'invoice.paid',
    ]);
    expect(events[1]!.event.data.object).toMatchObject({
      billing_reason: 'subscription_update',
      amount_paid: 47_900,
    });
    // invoice.paid first: its line's price and period name the plan on their own.
    await deliver([events[1]!, events[0]!, events[1]!]);
    expect(await subscriptionRow(fay.user.id)).toMatchObject({
      planId: 'pro',
      billingCycle: 'yearly',
    });
    expect(await creditBalance(t.app, fay.token)).toBe(1340 + 1340);
    const listed = await t.app.inject({ url: '/api/account/payments', headers: bearer(fay.token) });
    expect(
      listed
        .json()
        .data.payments.map((p: Record<string, unknown>) => [
          p.id,
          p.item_id,
          p.billing_cycle,
          p.amount_cents,
        ]),
    ).toEqual([
      [`invoice:${events[1]!.event.data.object.id}`, 'pro', 'yearly', 47_900],
      [expect.stringMatching(/^checkout:/), 'pro', 'monthly', 5990],
    ]);
  });

  it("a yearly plan switched mid-year keeps granting what the year's payment bought", async () => {
    const gus = await signInLocal(t.app, 'gus-portal-midyear@example.com');
    const subscriptionId = await subscribe(gus.token, 'lite', 'yearly');
    expect(await creditBalance(t.app, gus.token)).toBe(590);
    await deliver(
      stripe.portalSwitchPlan(subscriptionId, {
        unitAmount: 95_900,
        interval: 'year',
        productName: 'Pro+ (yearly)',
        lookupKey: 'pro+_yearly',
      }),
    );
    expect((await subscriptionRow(gus.user.id)).planId).toBe('pro+');
    await t.app.billing.runScheduledGrants(new Date(Date.now() + 32 * DAY_MS));
    expect(await creditBalance(t.app, gus.token)).toBe(590 + 590);
  });

  it('lists each renewal under the plan it paid for, before and after a switch', async () => {
    const kit = await signInLocal(t.app, 'kit-portal-history@example.com');
    const subscriptionId = await subscribe(kit.token, 'lite', 'monthly');
    await deliver(stripe.renewSubscription(subscriptionId));
    await deliver(
      stripe.portalSwitchPlan(subscriptionId, {
        unitAmount: 12_990,
        interval: 'month',
        productName: 'Pro+',
        metadata: { planId: 'pro+' },
      }),
    );
    await deliver(stripe.renewSubscription(subscriptionId));
    const listed = await t.app.inject({ url: '/api/account/payments', headers: bearer(kit.token) });
    expect(
      listed
        .json()
        .data.payments.map((p: Record<string, unknown>) => [
          String(p.id).split(':')[0],
          p.item_id,
          p.amount_cents,
        ]),
    ).toEqual([
      ['invoice', 'pro+', 12_990],
      ['invoice', 'lite', 2990],
      ['checkout', 'lite', 2990],
    ]);
    expect(await creditBalance(t.app, kit.token)).toBe(590 + 590 + 3370);
  });

  it('a price that is none of our plans leaves the plan as it was', async () => {
    const hal = await signInLocal(t.app, 'hal-portal-unknown@example.com');
    const subscriptionId = await subscribe(hal.token, 'lite', 'monthly');
    await deliver(
      stripe.portalSwitchPlan(subscriptionId, {
        unitAmount: 1234,
        interval: 'month',
        productName: 'Legacy',
      }),
    );
    expect(await subscriptionRow(hal.user.id)).toMatchObject({ planId: 'lite', status: 'active' });
  });

  it('a new card from the portal is acknowledged and changes nothing', async () => {
    const ivy = await signInLocal(t.app, 'ivy-portal-card@example.com');
    await subscribe(ivy.token, 'lite', 'monthly');
    const customerId = String(portalCustomer(stripe, ivy.user.id));
    const events = stripe.portalUpdatePaymentMethod(customerId);
    expect(events.map((e) => e.event.type)).toEqual([
      'payment_method.attached',
      'customer.updated',
    ]);
    await deliver(events);
    for (const signed of events) {
      const [stored] = await t.database.db
        .select()
        .from(webhookEvents)
        .where(eq(webhookEvents.id, signed.event.id));
      expect(stored).toMatchObject({ type: signed.event.type, handled: false });
    }
    expect(await creditBalance(t.app, ivy.token)).toBe(590);
    expect((await subscriptionRow(ivy.user.id)).status).toBe('active');
  });

  it('lists a subscription first payment once and each renewal, newest first', async () => {
    const joe = await signInLocal(t.app, 'joe-portal-list@example.com');
    const subscriptionId = await subscribe(joe.token, 'lite', 'monthly');
    const renewal = stripe.renewSubscription(subscriptionId);
    await deliver(renewal);
    const res = await t.app.inject({ url: '/api/account/payments', headers: bearer(joe.token) });
    expect(res.statusCode, res.body).toBe(200);
    const { payments, has_more } = res.json().data;
    expect(has_more).toBe(false);
    expect(payments.map((p: { id: string }) => p.id.split(':')[0])).toEqual([
      'invoice',
      'checkout',
    ]);
    expect(payments[0]).toMatchObject({
      id: `invoice:${renewal[0]!.event.data.object.id}`,
      type: 'subscription',
      item_id: 'lite',
      billing_cycle: 'monthly',
      amount_cents: 2990,
      currency: 'usd',
    });
    expect(payments[1]).toMatchObject({
      type: 'subscription',
      item_id: 'lite',
      amount_cents: 2990,
    });
  });
});

/** The Stripe customer the app made for a user (named in its customers.create metadata). */
function portalCustomer(stripe: StripeFake, userId: string): unknown {
  const created = stripe.requests.find(
    (r) =>
      r.path === '/v1/customers' &&
      (r.body.metadata as Record<string, string> | undefined)?.userId === userId,
  );
  const session = stripe.requests.find(
    (r) => r.path === '/v1/checkout/sessions' && r.body.client_reference_id === userId,
  );
  expect(created).toBeDefined();
  return session?.body.customer;
}
