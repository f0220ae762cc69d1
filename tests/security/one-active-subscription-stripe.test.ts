/**
 * Finding 2 of issue 16, with Stripe (played by tests/fakes/stripe/): a user's checkouts name one
 * Stripe customer; a new plan checkout expires the user's open one (or is refused when Stripe says
 * it was paid, or while a subscription is active); and a second subscription that arrives anyway
 * is stored canceled, granting nothing, then cancelled at Stripe and refunded once, however often
 * its events are delivered. A failed cancel or refund is retried by the sweep.
 */
import { and, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkoutSessions,
  duplicateSubscriptions,
  stripeCustomers,
  subscriptions,
} from '../../server/db/schema.ts';
import { createStripeProvider } from '../../server/domains/billing/providers/stripe.ts';
import { createBillingService } from '../../server/domains/billing/service.ts';
import { createStripeWebhookHandler } from '../../server/domains/billing/webhooks.ts';
import { createCreditsService } from '../../server/domains/credits/service.ts';
import { BILLING_MESSAGES, findPlan } from '../../shared/billing.ts';
import { startStripeFake, type SignedEvent, type StripeFake } from '../fakes/stripe/index.ts';
import { bearer, createTestApp, creditBalance, signInLocal, type TestApp } from '../helpers/app.ts';
import { requestCheckout, SITE_ORIGIN, stripeEnv } from '../helpers/billing.ts';
import { databaseKinds } from '../helpers/database.ts';

const credits = (planId: string) => findPlan(planId)!.credits;

describe('One active subscription per user', () => {
  describe.each(databaseKinds)('Stripe (fake) on %s', (kind) => {
    let stripe: StripeFake;
    let t: TestApp;
    /** Another integration (the dashboard, an old tab's session) talking to the same Stripe. */
    let sdk: Stripe;

    beforeAll(async () => {
      stripe = await startStripeFake();
      t = await createTestApp(kind, {
        env: stripeEnv(stripe),
      });
      sdk = new Stripe(stripe.secretKey, {
        host: '127.0.0.1',
        port: stripe.port,
        protocol: 'http',
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
    const deliverAll = async (events: SignedEvent[]) => {
      for (const e of events) expect((await deliver(e)).statusCode).toBe(200);
    };
    const buy = async (token: string, payload: object) => {
      const res = await requestCheckout(t.app, token, payload);
      expect(res.statusCode).toBe(200);
      return (res.json() as { sessionId: string }).sessionId;
    };
    const requestsTo = (method: string, path: string) =>
      stripe.requests.filter((r) => r.method === method && r.path === path);
    const subscriptionStatus = async (token: string) =>
      (
        await t.app.inject({ url: '/api/stripe/subscription/status', headers: bearer(token) })
      ).json();
    const customerOf = async (userId: string) =>
      (
        await t.database.db.select().from(stripeCustomers).where(eq(stripeCustomers.userId, userId))
      )[0]?.customerId;
    const checkoutRow = async (id: string) =>
      (await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)))[0];
    const subscriptionRow = async (id: string) =>
      (await t.database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0];
    /** A plan subscription made at Stripe without our checkout (dashboard, another integration). */
    const subscribeElsewhere = async (userId: string, planId: string) => {
      const session = await sdk.checkout.sessions.create({
        mode: 'subscription',
        customer: (await customerOf(userId))!,
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: 'usd',
              unit_amount: 5990,
              product_data: { name: `${planId} plan` },
              recurring: { interval: 'month' },
            },
          },
        ],
        subscription_data: { metadata: { userId, planId, billingCycle: 'monthly' } },
        success_url: `${SITE_ORIGIN}/pricing?payment=success`,
      });
      return stripe.completeCheckout(session.id);
    };
    const subscriptionIdOf = (events: SignedEvent[]) =>
      String(
        events.find((e) => e.event.type === 'customer.subscription.created')!.event.data.object.id,
      );
    /** The charge that paid a subscription's first invoice, as Stripe reports it now. */
    const firstCharge = async (subscriptionId: string) => {
      const sub = await sdk.subscriptions.retrieve(subscriptionId);
      const [payment] = (await sdk.invoicePayments.list({ invoice: String(sub.latest_invoice) }))
        .data;
      const intent = await sdk.paymentIntents.retrieve(String(payment!.payment.payment_intent));
      return sdk.charges.retrieve(String(intent.latest_charge));
    };
    const validLedger = async (userId: string) =>
      expect((await createCreditsService(t.database.db).validate(userId)).valid).toBe(true);

    it('names one Stripe customer in every checkout of a user', async () => {
      const ann = await signInLocal(t.app, `ann-customer-${kind}@example.com`);
      await buy(ann.token, { type: 'credits', package_id: 'starter' });
      await buy(ann.token, { type: 'credits', package_id: 'basic' });
      await buy(ann.token, { type: 'subscription', plan_id: 'lite' });
      const made = requestsTo('POST', '/v1/customers').filter(
        (r) => (r.body.metadata as { userId?: string }).userId === ann.user.id,
      );
      expect(made).toHaveLength(1);
      const customer = await customerOf(ann.user.id);
      expect(customer).toMatch(/^cus_/);
      const sessions = requestsTo('POST', '/v1/checkout/sessions').filter(
        (r) => r.body.client_reference_id === ann.user.id,
      );
      expect(sessions.map((r) => r.body.customer)).toEqual([customer, customer, customer]);
      expect(sessions.every((r) => !('customer_email' in r.body))).toBe(true);
    });

    it('a new plan checkout expires the open one, so a closed Stripe tab blocks nobody', async () => {
      const bob = await signInLocal(t.app, `bob-expire-${kind}@example.com`);
      const first = await buy(bob.token, { type: 'subscription', plan_id: 'lite' });
      const second = await buy(bob.token, { type: 'subscription', plan_id: 'pro' });
      expect(requestsTo('POST', `/v1/checkout/sessions/${first}/expire`)).toHaveLength(1);
      expect((await sdk.checkout.sessions.retrieve(first)).status).toBe('expired');
      expect((await checkoutRow(first))!.status).toBe('expired');
      expect((await checkoutRow(second))!.status).toBe('open');

      await deliverAll(stripe.completeCheckout(second));
      expect(await subscriptionStatus(bob.token)).toMatchObject({
        hasActiveSubscription: true,
        subscription: { planId: 'pro' },
      });
      expect(await creditBalance(t.app, bob.token)).toBe(credits('pro'));
    });

    it('refuses a plan checkout when the open one was paid at Stripe, fulfilling that one', async () => {
      const cy = await signInLocal(t.app, `cy-paid-${kind}@example.com`);
      const first = await buy(cy.token, { type: 'subscription', plan_id: 'lite' });
      const events = stripe.completeCheckout(first); // paid; its webhook is late
      const sessionsBefore = requestsTo('POST', '/v1/checkout/sessions').length;

      const second = await requestCheckout(t.app, cy.token, {
        type: 'subscription',
        plan_id: 'pro',
      });
      expect(second.statusCode).toBe(409);
      expect(second.json().message).toBe(BILLING_MESSAGES.alreadySubscribed);
      expect(requestsTo('POST', '/v1/checkout/sessions')).toHaveLength(sessionsBefore);
      expect(await subscriptionStatus(cy.token)).toMatchObject({
        subscription: { planId: 'lite', status: 'active' },
      });
      expect(await creditBalance(t.app, cy.token)).toBe(credits('lite'));

      await deliverAll(events);
      expect(await creditBalance(t.app, cy.token)).toBe(credits('lite'));
      // While it is active, a plan checkout is refused before Stripe is asked anything.
      const calls = stripe.requests.length;
      const third = await requestCheckout(t.app, cy.token, {
        type: 'subscription',
        plan_id: 'pro',
      });
      expect(third.statusCode).toBe(409);
      expect(third.json().message).toBe(BILLING_MESSAGES.alreadySubscribed);
      expect(stripe.requests).toHaveLength(calls);
      await validLedger(cy.user.id);
    });

    it('two plan checkouts at once leave one open session, never two', async () => {
      const dee = await signInLocal(t.app, `dee-tabs-${kind}@example.com`);
      const answers = await Promise.all(
        ['lite', 'pro'].map((plan) =>
          requestCheckout(t.app, dee.token, { type: 'subscription', plan_id: plan }),
        ),
      );
      for (const res of answers) expect([200, 409]).toContain(res.statusCode);
      expect(answers.some((res) => res.statusCode === 200)).toBe(true);
      const rows = await t.database.db
        .select()
        .from(checkoutSessions)
        .where(eq(checkoutSessions.userId, dee.user.id));
      const open = rows.filter((r) => r.status === 'open');
      expect(open).toHaveLength(1);
      for (const row of rows) {
        const atStripe = (await sdk.checkout.sessions.retrieve(row.id)).status;
        expect(atStripe).toBe(row.status === 'open' ? 'open' : 'expired');
      }
    });

    it('a second subscription arriving anyway is cancelled and refunded once and grants nothing', async () => {
      const eve = await signInLocal(t.app, `eve-dup-${kind}@example.com`);
      await deliverAll(
        stripe.completeCheckout(await buy(eve.token, { type: 'subscription', plan_id: 'lite' })),
      );
      expect(await creditBalance(t.app, eve.token)).toBe(credits('lite'));

      const events = await subscribeElsewhere(eve.user.id, 'pro');
      const duplicate = subscriptionIdOf(events);
      await deliverAll(events);
      // Replays, sequential and at once, change nothing.
      await deliverAll(events);
      await Promise.all(events.map((e) => deliver(e)));

      expect(await creditBalance(t.app, eve.token)).toBe(credits('lite'));
      expect(await subscriptionStatus(eve.token)).toMatchObject({
        subscription: { planId: 'lite', status: 'active' },
      });
      expect((await subscriptionRow(duplicate))!.status).toBe('canceled');
      const [owed] = await t.database.db
        .select()
        .from(duplicateSubscriptions)
        .where(eq(duplicateSubscriptions.subscriptionId, duplicate));
      expect(owed!.settledAt).not.toBeNull();

      expect((await sdk.subscriptions.retrieve(duplicate)).status).toBe('canceled');
      expect(requestsTo('DELETE', `/v1/subscriptions/${duplicate}`)).toHaveLength(1);
      const refunds = requestsTo('POST', '/v1/refunds');
      const charge = await firstCharge(duplicate);
      const refundsOfCharge = refunds.filter(
        (r) => r.body.payment_intent === charge.payment_intent,
      );
      expect(refundsOfCharge).toHaveLength(1);
      expect(refundsOfCharge[0]!.idempotencyKey).toBe(
        `refund-duplicate-${duplicate}-${String(charge.payment_intent)}`,
      );
      expect(charge.amount_refunded).toBe(charge.amount);

      // What Stripe sends back (the deleted subscription, the refunded charge) takes nothing.
      await deliverAll(stripe.takeEvents());
      expect(await creditBalance(t.app, eve.token)).toBe(credits('lite'));
      expect((await subscriptionStatus(eve.token)).subscription.planId).toBe('lite');
      await validLedger(eve.user.id);
    });

    it('whichever subscription is reported first is kept: our own checkout can be the duplicate', async () => {
      const fay = await signInLocal(t.app, `fay-order-${kind}@example.com`);
      const ours = await buy(fay.token, { type: 'subscription', plan_id: 'lite' });
      const oursEvents = stripe.completeCheckout(ours);
      await deliverAll(await subscribeElsewhere(fay.user.id, 'pro'));
      await deliverAll(oursEvents);

      expect(await creditBalance(t.app, fay.token)).toBe(credits('pro'));
      expect((await subscriptionStatus(fay.token)).subscription.planId).toBe('pro');
      const state = await t.app.inject({
        url: `/api/stripe/checkout/${ours}`,
        headers: bearer(fay.token),
      });
      expect(state.json().data.status).toBe('canceled');
      const charge = await firstCharge(subscriptionIdOf(oursEvents));
      expect(charge.amount_refunded).toBe(charge.amount);
      await validLedger(fay.user.id);
    });

    it('a refund that fails after the commit is retried by the sweep, and made once', async () => {
      const gil = await signInLocal(t.app, `gil-retry-${kind}@example.com`);
      await deliverAll(
        stripe.completeCheckout(await buy(gil.token, { type: 'subscription', plan_id: 'lite' })),
      );
      const real = await createStripeProvider({
        secretKey: stripe.secretKey,
        webhookSecret: stripe.webhookSecret,
        apiBase: new URL(stripe.url),
      });
      let outage = true;
      const flaky: typeof real = {
        ...real,
        async refundSubscription(id) {
          if (outage) throw new Error('Stripe is unreachable');
          return real.refundSubscription(id);
        },
      };
      const billing = createBillingService({
        db: t.database.db,
        config: t.config,
        provider: flaky,
        log: t.app.log,
      });
      const handle = createStripeWebhookHandler({
        db: t.database.db,
        billing,
        stripe: flaky,
        log: t.app.log,
      });
      const events = await subscribeElsewhere(gil.user.id, 'pro');
      const duplicate = subscriptionIdOf(events);
      for (const e of events) await handle(Buffer.from(e.payload), e.header);

      const owed = () =>
        t.database.db
          .select()
          .from(duplicateSubscriptions)
          .where(eq(duplicateSubscriptions.subscriptionId, duplicate));
      expect((await owed())[0]).toMatchObject({ settledAt: null, attempts: 1 });
      expect((await owed())[0]!.lastError).toContain('unreachable');
      expect((await firstCharge(duplicate)).amount_refunded).toBe(0);
      expect(await creditBalance(t.app, gil.token)).toBe(credits('lite'));

      outage = false;
      expect(await billing.settleDuplicateSubscriptions()).toBe(0); // not due yet
      await t.database.db
        .update(duplicateSubscriptions)
        .set({ nextAttemptAt: new Date(Date.now() - 1000) })
        .where(and(eq(duplicateSubscriptions.subscriptionId, duplicate)));
      expect(await billing.settleDuplicateSubscriptions()).toBe(1);
      expect(await billing.settleDuplicateSubscriptions()).toBe(0);
      const charge = await firstCharge(duplicate);
      expect(charge.amount_refunded).toBe(charge.amount);
      expect((await owed())[0]!.settledAt).not.toBeNull();
      expect(await creditBalance(t.app, gil.token)).toBe(credits('lite'));
    });
  });
});
