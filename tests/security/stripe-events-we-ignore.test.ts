/**
 * Issue 16, finding 3: Stripe events we used to store and ignore. A failed renewal must stop a
 * yearly plan's monthly credits until it is paid; a dispute must hold back the credits the
 * disputed payment granted (given back if won); a refunded subscription payment must take its
 * credits back like a refunded pack; an expired or failed checkout must say so. Every event is
 * sent by the Stripe fake as Stripe sends it, through the signed webhook.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import { createBillingService } from '../../server/domains/billing/service.ts';
import { createStripeProvider } from '../../server/domains/billing/providers/stripe.ts';
import { createCreditsService } from '../../server/domains/credits/service.ts';
import {
  checkoutSessions,
  creditTransactions,
  subscriptions,
  webhookEvents,
} from '../../server/db/schema.ts';
import { startStripeFake, type SignedEvent, type StripeFake } from '../fakes/stripe/index.ts';
import { bearer, createTestApp, creditBalance, signInLocal, type TestApp } from '../helpers/app.ts';
import { requestCheckout, stripeEnv } from '../helpers/billing.ts';
import { databaseKinds } from '../helpers/database.ts';

const LITE = 590;
const STARTER = 330;

/** `date` moved by whole months (UTC) plus one day, past the grant's due time. */
const monthsAfter = (date: Date, months: number) => {
  const out = new Date(date);
  out.setUTCMonth(out.getUTCMonth() + months);
  out.setUTCDate(out.getUTCDate() + 1);
  return out;
};

describe.each(databaseKinds)('Stripe events we ignore today, on %s', (kind) => {
  let stripe: StripeFake;
  let t: TestApp;
  let users = 0;

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

  const deliver = async (...events: SignedEvent[]) => {
    for (const signed of events) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/stripe/webhook',
        headers: { 'content-type': 'application/json', 'stripe-signature': signed.header },
        payload: signed.payload,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
  };
  const byType = (events: SignedEvent[], type: string) => {
    const found = events.find((e) => e.event.type === type);
    if (!found) throw new Error(`no ${type} in ${events.map((e) => e.event.type).join(', ')}`);
    return found;
  };
  const customer = () => signInLocal(t.app, `stripe-events-${++users}@example.com`);
  const balance = (token: string) => creditBalance(t.app, token);
  const buy = async (token: string, payload: object) => {
    const res = await requestCheckout(t.app, token, payload);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { sessionId: string }).sessionId;
  };
  const buyPack = (token: string) => buy(token, { type: 'credits', package_id: 'starter' });
  /** A paid Lite subscription; returns its subscription and first invoice ids. */
  const subscribe = async (token: string, billingCycle: 'monthly' | 'yearly') => {
    const sessionId = await buy(token, {
      type: 'subscription',
      plan_id: 'lite',
      billing_cycle: billingCycle,
    });
    const events = stripe.completeCheckout(sessionId);
    await deliver(...events);
    return {
      subscriptionId: String(byType(events, 'customer.subscription.created').event.data.object.id),
      invoiceId: String(byType(events, 'invoice.paid').event.data.object.id),
    };
  };
  const spend = (userId: string, amount: number) =>
    createCreditsService(t.database.db).apply({
      userId,
      amount: -amount,
      sourceType: 'test_spend',
      sourceId: `spend-${userId}-${amount}-${Math.random()}`,
      description: 'Spent on videos',
    });
  const ledgerRow = async (sourceType: string, sourceId: string) => {
    const [row] = await t.database.db
      .select()
      .from(creditTransactions)
      .where(
        and(
          eq(creditTransactions.sourceType, sourceType),
          eq(creditTransactions.sourceId, sourceId),
        ),
      );
    return row ?? null;
  };
  const checkoutRow = async (id: string) =>
    (await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)))[0];
  const subscriptionRow = async (id: string) =>
    (await t.database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
  const subscriptionStatus = async (token: string) =>
    (await t.app.inject({ url: '/api/stripe/subscription/status', headers: bearer(token) })).json();
  const checkoutStatus = async (token: string, sessionId: string) =>
    (
      await t.app.inject({ url: `/api/stripe/checkout/${sessionId}`, headers: bearer(token) })
    ).json();
  /** The hourly scheduled grants, run by hand with a chosen clock (the scheduler is off in tests). */
  const runScheduledGrants = async (now: Date) =>
    createBillingService({
      db: t.database.db,
      config: t.config,
      provider: await createStripeProvider(t.config.stripe!),
      log: t.app.log,
    }).runScheduledGrants(now);
  const ledgerIsValid = async (userId: string) =>
    (await createCreditsService(t.database.db).validate(userId)).valid;

  it('invoice.payment_failed: past_due, and a yearly plan earns no monthly credits until the invoice is paid', async () => {
    const ann = await customer();
    const { subscriptionId } = await subscribe(ann.token, 'yearly');
    const firstStart = (await subscriptionRow(subscriptionId)).currentPeriodStart;
    await runScheduledGrants(monthsAfter(firstStart, 11));
    expect(await balance(ann.token)).toBe(12 * LITE);

    const declined = stripe.renewSubscription(subscriptionId, 'failed');
    const failed = byType(declined, 'invoice.payment_failed');
    await deliver(failed);
    expect(await subscriptionStatus(ann.token)).toMatchObject({
      hasActiveSubscription: true,
      subscription: { status: 'past_due' },
    });

    // Stripe moves the period on when it bills the renewal; nothing is earned while unpaid.
    await deliver(byType(declined, 'customer.subscription.updated'));
    const secondStart = (await subscriptionRow(subscriptionId)).currentPeriodStart;
    expect(secondStart.getTime()).toBeGreaterThan(firstStart.getTime());
    expect(await runScheduledGrants(monthsAfter(secondStart, 3))).toBe(0);
    expect(await balance(ann.token)).toBe(12 * LITE);

    // Paid on Stripe's retry: active again, the period's credits and the months due since.
    await deliver(...stripe.retryInvoice(String(failed.event.data.object.id)));
    expect((await subscriptionStatus(ann.token)).subscription.status).toBe('active');
    expect(await balance(ann.token)).toBe(13 * LITE);
    await runScheduledGrants(monthsAfter(secondStart, 3));
    await runScheduledGrants(monthsAfter(secondStart, 3));
    expect(await balance(ann.token)).toBe(16 * LITE);

    // The late failure notice of an invoice since paid changes nothing.
    await deliver(stripe.sign({ ...failed.event, id: `${failed.event.id}_late` }));
    expect((await subscriptionStatus(ann.token)).subscription.status).toBe('active');
    expect(await ledgerIsValid(ann.user.id)).toBe(true);
  });

  it('charge.dispute.created: the disputed payment’s unspent credits are held back, with a ledger row', async () => {
    const bob = await customer();
    const pack = await buyPack(bob.token);
    await deliver(...stripe.completeCheckout(pack));
    await spend(bob.user.id, 100);
    const [packDispute] = stripe.disputePayment(pack);
    await deliver(packDispute!, packDispute!);
    expect(await balance(bob.token)).toBe(0);
    const packHold = await ledgerRow(
      'stripe_dispute_hold',
      String(packDispute!.event.data.object.id),
    );
    expect(packHold).toMatchObject({ userId: bob.user.id, amount: -(STARTER - 100) });

    // A subscription payment: the credits of the disputed invoice.
    const cy = await customer();
    const { invoiceId } = await subscribe(cy.token, 'monthly');
    expect(await balance(cy.token)).toBe(LITE);
    const [invoiceDispute] = stripe.disputePayment(invoiceId);
    await deliver(invoiceDispute!);
    expect(await balance(cy.token)).toBe(0);
    expect(
      await ledgerRow('stripe_dispute_hold', String(invoiceDispute!.event.data.object.id)),
    ).toMatchObject({
      userId: cy.user.id,
      amount: -LITE,
    });
    for (const user of [bob, cy]) expect(await ledgerIsValid(user.user.id)).toBe(true);
  });

  it('charge.dispute.closed: won gives back exactly what was held, lost keeps it, a close seen first holds nothing', async () => {
    const dan = await customer();
    const pack = await buyPack(dan.token);
    await deliver(...stripe.completeCheckout(pack));
    await spend(dan.user.id, 30);
    const [created] = stripe.disputePayment(pack);
    const disputeId = String(created!.event.data.object.id);
    await deliver(created!);
    expect(await balance(dan.token)).toBe(0);
    const more = await buyPack(dan.token);
    await deliver(...stripe.completeCheckout(more));
    const [won] = stripe.closeDispute(disputeId, 'won');
    await deliver(won!, won!);
    expect(await balance(dan.token)).toBe(STARTER + STARTER - 30);
    expect(await ledgerRow('stripe_dispute_release', disputeId)).toMatchObject({
      amount: STARTER - 30,
    });

    const eve = await customer();
    const lostPack = await buyPack(eve.token);
    await deliver(...stripe.completeCheckout(lostPack));
    const [lostCreated] = stripe.disputePayment(lostPack);
    const lostId = String(lostCreated!.event.data.object.id);
    await deliver(lostCreated!, ...stripe.closeDispute(lostId, 'lost'));
    expect(await balance(eve.token)).toBe(0);
    expect(await ledgerRow('stripe_dispute_release', lostId)).toBeNull();
    const recorded = await queryRows(
      t.database.db,
      sql`select status, credits_held from payment_disputes where id = ${lostId}`,
    );
    expect(recorded).toEqual([{ status: 'lost', credits_held: STARTER }]);

    // Delivered out of order: the won close first, then the create: nothing is held.
    const fay = await customer();
    const fayPack = await buyPack(fay.token);
    await deliver(...stripe.completeCheckout(fayPack));
    const [fayCreated] = stripe.disputePayment(fayPack);
    const [fayWon] = stripe.closeDispute(String(fayCreated!.event.data.object.id), 'won');
    await deliver(fayWon!, fayCreated!);
    expect(await balance(fay.token)).toBe(STARTER);

    // A yearly plan: the months granted are held, no month is granted while the dispute is
    // open, and once it is won the hold comes back and the months due since are granted.
    const gil = await customer();
    const yearly = await subscribe(gil.token, 'yearly');
    const start = (await subscriptionRow(yearly.subscriptionId)).currentPeriodStart;
    await runScheduledGrants(monthsAfter(start, 1));
    const [yearDispute] = stripe.disputePayment(yearly.invoiceId);
    await deliver(yearDispute!);
    expect(await balance(gil.token)).toBe(0);
    await runScheduledGrants(monthsAfter(start, 3));
    expect(await balance(gil.token)).toBe(0);
    await deliver(...stripe.closeDispute(String(yearDispute!.event.data.object.id), 'won'));
    expect(await balance(gil.token)).toBe(2 * LITE);
    await runScheduledGrants(monthsAfter(start, 3));
    expect(await balance(gil.token)).toBe(4 * LITE);

    // Both kinds are stored under their ids, as every event we receive.
    const stored = await t.database.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.id, fayCreated!.event.id));
    expect(stored).toMatchObject([{ type: 'charge.dispute.created', handled: true }]);
    for (const user of [dan, eve, fay, gil]) expect(await ledgerIsValid(user.user.id)).toBe(true);
  });

  it('charge.refunded for a subscription: the invoice’s credits are taken back in proportion, as far as unspent', async () => {
    const gus = await customer();
    const monthly = await subscribe(gus.token, 'monthly');
    const half = stripe.refundPayment(monthly.invoiceId, 1495);
    await deliver(...half, ...half);
    expect(await balance(gus.token)).toBe(LITE - 295);
    await deliver(...stripe.refundPayment(monthly.invoiceId));
    expect(await balance(gus.token)).toBe(0);

    // Spent credits cannot be taken back: the balance stops at zero.
    const hal = await customer();
    const spent = await subscribe(hal.token, 'monthly');
    await spend(hal.user.id, 500);
    await deliver(...stripe.refundPayment(spent.invoiceId));
    expect(await balance(hal.token)).toBe(0);

    // A yearly plan: the months granted so far go back, and the refunded year earns no more.
    const ivy = await customer();
    const yearly = await subscribe(ivy.token, 'yearly');
    const start = (await subscriptionRow(yearly.subscriptionId)).currentPeriodStart;
    await runScheduledGrants(monthsAfter(start, 1));
    expect(await balance(ivy.token)).toBe(2 * LITE);
    await deliver(...stripe.refundPayment(yearly.invoiceId));
    expect(await balance(ivy.token)).toBe(0);
    await runScheduledGrants(monthsAfter(start, 4));
    expect(await balance(ivy.token)).toBe(0);
    for (const user of [gus, hal, ivy]) expect(await ledgerIsValid(user.user.id)).toBe(true);
  });

  it('checkout.session.expired: our checkout is recorded as expired', async () => {
    const jo = await customer();
    const sessionId = await buyPack(jo.token);
    await deliver(...stripe.expireCheckout(sessionId));
    expect((await checkoutRow(sessionId))?.status).toBe('expired');
  });

  it('checkout.session.async_payment_failed: the checkout is recorded as failed and grants nothing', async () => {
    const kim = await customer();
    const sessionId = await buyPack(kim.token);
    await deliver(...stripe.completeCheckout(sessionId, {}, { delayed: true }));
    expect((await checkoutRow(sessionId))?.status).toBe('open');
    await deliver(...stripe.settleDelayedPayment(sessionId, 'failed'));
    expect((await checkoutRow(sessionId))?.status).toBe('failed');
    expect((await checkoutStatus(kim.token, sessionId)).data.status).toBe('failed');
    expect(await balance(kim.token)).toBe(0);
  });

  it('checkout.session.async_payment_succeeded: a delayed payment is fulfilled once, when it settles', async () => {
    const lee = await customer();
    const sessionId = await buyPack(lee.token);
    await deliver(...stripe.completeCheckout(sessionId, {}, { delayed: true }));
    expect(await balance(lee.token)).toBe(0);
    const settled = stripe.settleDelayedPayment(sessionId, 'succeeded');
    await deliver(...settled, ...settled);
    expect(await balance(lee.token)).toBe(STARTER);
    expect((await checkoutRow(sessionId))?.status).toBe('paid');
    expect(await ledgerIsValid(lee.user.id)).toBe(true);
  });
});
