import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptions } from '../../server/db/schema.ts';
import { createLocalCheckoutProvider } from '../../server/domains/billing/providers/local-checkout.ts';
import { BILLING_MESSAGES } from '../../shared/billing.ts';
import { createBillingService } from '../../server/domains/billing/service.ts';
import { createCreditsService } from '../../server/domains/credits/service.ts';
import { bearer, createTestApp, creditBalance, signInLocal, type TestApp } from '../helpers/app.ts';
import {
  openLocalCheckoutForm,
  requestCheckout,
  SITE_ORIGIN,
  submitLocalCheckout,
} from '../helpers/billing.ts';
import { databaseKinds } from '../helpers/database.ts';

describe.each(databaseKinds)('billing with the local checkout on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const checkout = (token: string | null, payload: object) =>
    requestCheckout(t.app, token, payload);
  const forms = new Map<string, Promise<string>>();
  /** Pay on the buyer's open page: a second press (a double click) posts the same form again. */
  const pay = (sessionId: string) => {
    if (!forms.has(sessionId)) forms.set(sessionId, openLocalCheckoutForm(t.app, sessionId));
    return forms
      .get(sessionId)!
      .then((form) => submitLocalCheckout(t.app, sessionId, 'pay', { form }));
  };
  const balance = (token: string) => creditBalance(t.app, token);
  const status = async (token: string) =>
    (await t.app.inject({ url: '/api/stripe/subscription/status', headers: bearer(token) })).json();

  it('refuses a signed-out buyer with the spec message', async () => {
    const res = await checkout(null, { type: 'credits', package_id: 'starter' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, message: 'Please login before purchasing' });
  });

  it.each([
    [{ type: 'credits', package_id: 'mega' }, "Unknown credit pack 'mega'"],
    [{ type: 'subscription', plan_id: 'gold' }, "Unknown plan 'gold'"],
    [{ type: 'subscription' }, 'plan_id'],
    [{ type: 'credits' }, 'package_id'],
    [{ type: 'credits', package_id: 'starter', amount: 9.9 }, 'does not match the price'],
    [
      { type: 'subscription', plan_id: 'pro', billing_cycle: 'yearly', amount: 59.9 },
      'does not match the price',
    ],
    [{ type: 'credits', package_id: 'starter', currency: 'eur' }, 'USD'],
    [
      { type: 'credits', package_id: 'starter', success_url: 'https://evil.example/x' },
      'success_url',
    ],
    [{ type: 'credits', package_id: 'starter', cancel_url: 'javascript:alert(1)' }, 'cancel_url'],
  ])('answers 400 for %j naming the problem', async (payload, text) => {
    const ann = await signInLocal(t.app, 'ann-400@example.com');
    const res = await checkout(ann.token, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(text);
  });

  it('sells the Starter pack through the local checkout: +330 credits, paying twice grants once', async () => {
    const ann = await signInLocal(t.app, 'ann-pack@example.com');
    const res = await checkout(ann.token, {
      type: 'credits',
      package_id: 'starter',
      amount: 19.9,
      currency: 'usd',
    });
    expect(res.statusCode).toBe(200);
    const { url, sessionId } = res.json();
    expect(url).toBe(`/checkout/local/${sessionId}`);

    const page = await t.app.inject({ url });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Starter credit pack');
    expect(page.body).toContain('$19.90');
    expect(page.body).toContain(`action="/checkout/local/${sessionId}/pay"`);

    const first = await pay(sessionId);
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe(
      `${SITE_ORIGIN}/pricing?payment=success&session_id=${sessionId}`,
    );
    expect((await pay(sessionId)).statusCode).toBe(303);
    expect(await balance(ann.token)).toBe(330);

    const state = await t.app.inject({
      url: `/api/stripe/checkout/${sessionId}`,
      headers: bearer(ann.token),
    });
    expect(state.json().data).toEqual({
      sessionId,
      status: 'paid',
      type: 'credits',
      credits: 330,
      item_id: 'starter',
      billing_cycle: null,
      amount: 19.9,
      currency: 'usd',
    });
    const bob = await signInLocal(t.app, 'bob-pack@example.com');
    const foreign = await t.app.inject({
      url: `/api/stripe/checkout/${sessionId}`,
      headers: bearer(bob.token),
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('cancelling the local checkout returns to cancel_url and grants nothing', async () => {
    const ann = await signInLocal(t.app, 'ann-cancel@example.com');
    const { sessionId } = (
      await checkout(ann.token, { type: 'credits', package_id: 'basic' })
    ).json();
    // The buyer's page shows Pay and Cancel; Cancel is pressed, then Pay on the same page.
    const form = await openLocalCheckoutForm(t.app, sessionId);
    forms.set(sessionId, Promise.resolve(form));
    const res = await submitLocalCheckout(t.app, sessionId, 'cancel', { form });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${SITE_ORIGIN}/pricing?payment=cancelled`);
    expect((await pay(sessionId)).statusCode).toBe(409);
    expect(await balance(ann.token)).toBe(0);
  });

  it('subscribes to Lite, refuses a second plan, then cancels back to no subscription', async () => {
    const ann = await signInLocal(t.app, 'ann-sub@example.com');
    expect(await status(ann.token)).toEqual({
      success: true,
      hasActiveSubscription: false,
      subscription: null,
    });
    const { sessionId } = (
      await checkout(ann.token, {
        type: 'subscription',
        plan_id: 'lite',
        billing_cycle: 'monthly',
        amount: 29.9,
      })
    ).json();
    expect((await pay(sessionId)).statusCode).toBe(303);

    const active = await status(ann.token);
    expect(active).toMatchObject({
      hasActiveSubscription: true,
      subscription: { planId: 'lite', billingCycle: 'monthly', status: 'active' },
    });
    const periodEnd = active.subscription.currentPeriodEnd;
    expect(periodEnd).toBeGreaterThan(Date.now() / 1000 + 27 * 86400);
    expect(await balance(ann.token)).toBe(590);

    const second = await checkout(ann.token, { type: 'subscription', plan_id: 'pro' });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(BILLING_MESSAGES.alreadySubscribed);
    // Packs stay available while subscribed.
    expect((await checkout(ann.token, { type: 'credits', package_id: 'starter' })).statusCode).toBe(
      200,
    );

    const cancel = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/subscription/cancel',
      headers: bearer(ann.token),
      payload: { immediately: true },
    });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json().data.message).toMatch(/cancelled/);
    expect(await status(ann.token)).toMatchObject({
      hasActiveSubscription: false,
      subscription: null,
    });
    expect(await balance(ann.token)).toBe(590); // credits stay

    const again = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/subscription/cancel',
      headers: bearer(ann.token),
      payload: { immediately: true },
    });
    expect(again.statusCode).toBe(404);
  });

  it('two open subscription checkouts cannot both start a subscription', async () => {
    const ann = await signInLocal(t.app, 'ann-two@example.com');
    const a = (await checkout(ann.token, { type: 'subscription', plan_id: 'lite' })).json();
    const b = (await checkout(ann.token, { type: 'subscription', plan_id: 'pro' })).json();
    expect((await pay(a.sessionId)).statusCode).toBe(303);
    const second = await pay(b.sessionId);
    expect(second.statusCode).toBe(409);
    expect(await balance(ann.token)).toBe(590);
  });

  it('renews local subscriptions and grants yearly plans monthly, once per month', async () => {
    const ann = await signInLocal(t.app, 'ann-yearly@example.com');
    const { sessionId } = (
      await checkout(ann.token, {
        type: 'subscription',
        plan_id: 'pro',
        billing_cycle: 'yearly',
        amount: 479,
      })
    ).json();
    await pay(sessionId);
    expect(await balance(ann.token)).toBe(1340);
    const sub = (await status(ann.token)).subscription;
    expect(sub.billingCycle).toBe('yearly');

    // The hourly scheduler is off in tests: run the same scheduled entry with a chosen clock.
    const service = createBillingService({
      db: t.database.db,
      config: t.config,
      provider: createLocalCheckoutProvider(),
      log: t.app.log,
    });

    const [row] = await t.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, ann.user.id));
    const threeMonthsLater = new Date(row!.currentPeriodStart);
    threeMonthsLater.setUTCMonth(threeMonthsLater.getUTCMonth() + 3);
    threeMonthsLater.setUTCDate(threeMonthsLater.getUTCDate() + 1);
    await service.runScheduledGrants(threeMonthsLater);
    await service.runScheduledGrants(threeMonthsLater);
    expect(await balance(ann.token)).toBe(1340 * 4);

    // A monthly local subscription renews when its period ends.
    const bob = await signInLocal(t.app, 'bob-renew@example.com');
    const lite = (await checkout(bob.token, { type: 'subscription', plan_id: 'lite' })).json();
    await pay(lite.sessionId);
    const [bobSub] = await t.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, bob.user.id));
    const afterTwoPeriods = new Date(bobSub!.currentPeriodEnd);
    afterTwoPeriods.setUTCMonth(afterTwoPeriods.getUTCMonth() + 1);
    afterTwoPeriods.setUTCDate(afterTwoPeriods.getUTCDate() + 1);
    await service.runScheduledGrants(afterTwoPeriods);
    await service.runScheduledGrants(afterTwoPeriods);
    expect(await balance(bob.token)).toBe(590 * 3);
    const renewed = (await status(bob.token)).subscription;
    expect(renewed.currentPeriodEnd * 1000).toBeGreaterThan(afterTwoPeriods.getTime());

    const credits = createCreditsService(t.database.db);
    for (const id of [ann.user.id, bob.user.id])
      expect((await credits.validate(id)).valid).toBe(true);
  });
});
