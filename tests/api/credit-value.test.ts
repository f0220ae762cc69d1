/**
 * A user's value of a credit (issue 37, item 5; server/domains/credits/credit-value.ts), on PGlite
 * and PostgreSQL: what each money event does to it (payment, renewal, refund, dispute won and
 * lost, another currency), free grants by an administrator (both admin routes, replays counted
 * once), and a video's revenue: credits × paid ÷ granted read in the charge's transaction, 0 for
 * a customer who never paid, and back to 0 when the video fails and is refunded.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import type { MoneyEvent } from '../../server/contracts/money-events.ts';
import { applyToCreditValue, readCreditValue } from '../../server/domains/credits/service.ts';
import { cheapestCredit } from '../../server/domains/video/providers/costs.ts';
import { VIDEO_COST } from '../../shared/video.ts';
import { bearer, createTestApp, signInAdmin, signInLocal, type TestApp } from '../helpers/app.ts';
import { requestCheckout, submitLocalCheckout } from '../helpers/billing.ts';
import { expectCreditsInvariant } from '../helpers/credits-invariant.ts';
import { databaseKinds } from '../helpers/database.ts';
import {
  drainQueue,
  fakeProvider,
  grantCredits,
  requestGeneration,
  testWorker,
} from '../helpers/video.ts';

const item = { type: 'credits' as const, id: 'starter' };
const base = { currency: 'usd', locale: 'en' as const, at: new Date(), item };

const payment = (
  userId: string,
  amountCents: number,
  creditsBought: number,
): Extract<MoneyEvent, { kind: 'payment' }> => ({
  ...base,
  kind: 'payment',
  userId,
  amountCents,
  checkoutId: `cs_${amountCents}_${creditsBought}`,
  discountCents: 0,
  credits: creditsBought,
  creditsBought,
});

describe.each(databaseKinds)('the value of a credit on %s', (kind) => {
  let t: TestApp;
  let seq = 0;
  beforeAll(async () => {
    t = await createTestApp(kind, { env: { VIDEO_WORKER: 'off', LOG_LEVEL: 'warn' } });
  }, 30_000);
  afterAll(async () => {
    // Videos the tests left queued are made before the ledger's checks.
    const route = [{ provider: 'fake', model: 'm' }];
    const worker = testWorker(t, {
      providers: { fake: fakeProvider({ polls: 1 }) },
      routes: { text: route, image: route },
    });
    await drainQueue(t.database.db, worker);
    await expectCreditsInvariant(t.database.db);
    await t?.close();
  });

  const customer = () => signInLocal(t.app, `value-${kind}-${++seq}@example.com`);
  const apply = (event: MoneyEvent) =>
    t.database.db.transaction((tx) => applyToCreditValue(tx, event));
  const value = (userId: string) => readCreditValue(t.database.db, userId);

  it('payments and renewals add what was paid and bought; refunds and lost disputes take it back', async () => {
    const { user } = await customer();
    expect(await value(user.id)).toEqual({ paidMicros: 0, creditsGranted: 0 });
    // A Starter pack at 20 % off: $15.92 for 330 credits.
    await apply({ ...payment(user.id, 1592, 330), discountCents: 398, promotionCode: 'LAUNCH' });
    expect(await value(user.id)).toEqual({ paidMicros: 15_920_000, creditsGranted: 330 });
    // A yearly Lite plan's renewal: $286 for 12 × 590 credits.
    await apply({
      ...base,
      kind: 'renewal',
      userId: user.id,
      amountCents: 28_600,
      invoiceId: 'in_1',
      subscriptionId: 'sub_1',
      item: { type: 'subscription', id: 'lite', billingCycle: 'yearly' },
      discountCents: 0,
      credits: 590,
      creditsBought: 7080,
    });
    expect(await value(user.id)).toEqual({ paidMicros: 301_920_000, creditsGranted: 7410 });
    // Half the renewal refunded: $143 and the 3540 credits it bought.
    await apply({
      ...base,
      kind: 'refund',
      userId: user.id,
      amountCents: 14_300,
      refundId: 're_1',
      paymentKey: 'invoice:in_1',
      creditsTakenBack: 590,
      creditsUnbought: 3540,
    });
    expect(await value(user.id)).toEqual({ paidMicros: 158_920_000, creditsGranted: 3870 });
    const dispute = {
      ...base,
      userId: user.id,
      amountCents: 1592,
      disputeId: 'dp_1',
      paymentKey: 'checkout:cs_1',
      creditsHeld: 330,
      creditsUnbought: 330,
    };
    // Won: the money stays, nothing changes.
    await apply({ ...dispute, kind: 'dispute_won' });
    expect(await value(user.id)).toEqual({ paidMicros: 158_920_000, creditsGranted: 3870 });
    // Lost: the pack's money and credits go.
    await apply({ ...dispute, kind: 'dispute_lost' });
    expect(await value(user.id)).toEqual({ paidMicros: 143_000_000, creditsGranted: 3540 });
  });

  it('never goes below zero, and counts no money it cannot price (another currency)', async () => {
    const { user } = await customer();
    await apply(payment(user.id, 1990, 330));
    await apply({ ...payment(user.id, 5000, 1000), currency: 'eur' });
    expect(await value(user.id)).toEqual({ paidMicros: 19_900_000, creditsGranted: 330 });
    await apply({
      ...base,
      kind: 'refund',
      userId: user.id,
      amountCents: 5000,
      refundId: 're_2',
      paymentKey: 'checkout:x',
      creditsTakenBack: 0,
      creditsUnbought: 1000,
    });
    expect(await value(user.id)).toEqual({ paidMicros: 0, creditsGranted: 0 });
  });

  it('refuses an event with a negative or fractional figure, changing nothing', async () => {
    const { user } = await customer();
    await expect(apply(payment(user.id, -100, 10))).rejects.toThrow(/amountCents/);
    await expect(apply(payment(user.id, 100, 1.5))).rejects.toThrow(/creditsBought/);
    expect(await value(user.id)).toEqual({ paidMicros: 0, creditsGranted: 0 });
  });

  it("counts an administrator's credits as free, once per key, and a taking back as less granted", async () => {
    const { user } = await customer();
    const admin = await signInAdmin(t.app);
    await apply(payment(user.id, 1990, 330));
    const adjust = (amount: number, idempotencyKey?: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/users/${user.id}/credits`,
        headers: bearer(admin),
        payload: { amount, reason: 'launch gift', ...(idempotencyKey ? { idempotencyKey } : {}) },
      });
    expect((await adjust(70, 'gift-1')).statusCode).toBe(200);
    expect((await adjust(70, 'gift-1')).statusCode).toBe(200);
    expect(await value(user.id)).toEqual({ paidMicros: 19_900_000, creditsGranted: 400 });
    expect((await adjust(-50)).statusCode).toBe(200);
    expect(await value(user.id)).toEqual({ paidMicros: 19_900_000, creditsGranted: 350 });
    // POST /api/credits/add (the spec's admin route): a free grant too, once per source id.
    const add = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/credits/add',
        headers: bearer(admin),
        payload: {
          userId: user.id,
          amount: 50,
          sourceType: 'promo_gift',
          sourceId: 'gift-2',
          description: 'partner gift',
        },
      });
    expect((await add()).statusCode).toBe(200);
    expect((await add()).statusCode).toBe(200);
    expect(await value(user.id)).toEqual({ paidMicros: 19_900_000, creditsGranted: 400 });
    // A refused change (more than the balance) counts nothing.
    expect((await adjust(-1_000_000)).statusCode).toBe(409);
    expect(await value(user.id)).toEqual({ paidMicros: 19_900_000, creditsGranted: 400 });
  });

  async function revenueOf(taskId: string) {
    const rows = await queryRows<{ revenue: string | null; status: string }>(
      t.database.db,
      sql`select revenue_usd::text as revenue, status from video_tasks where id = ${taskId}`,
    );
    return rows[0]!;
  }

  it("writes a video's revenue at the value when charged, and 0 when it fails and is refunded", async () => {
    const buyer = await customer();
    // $19.90 for 330 credits, then 70 free: 17 credits = 17 × 19.90 ÷ 400 = $0.845750.
    await t.database.db.transaction(async (tx) => {
      await applyToCreditValue(tx, payment(buyer.user.id, 1990, 330));
    });
    await grantCredits(t, buyer.user.id, 400);
    const admin = await signInAdmin(t.app);
    await t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${buyer.user.id}/credits`,
      headers: bearer(admin),
      payload: { amount: 70, reason: 'launch gift' },
    });
    const ok = await requestGeneration(t.app, buyer.token, { model: 'veo3', prompt: 'a quay' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await revenueOf(ok.json().data.taskId)).toEqual({
      revenue: '0.845750',
      status: 'pending',
    });
    // 1080p costs 22 credits: 22 × 19.90 ÷ 400 = $1.094500.
    const hd = await requestGeneration(t.app, buyer.token, {
      model: 'veo3',
      prompt: '[fail] a quay at night',
      resolution: '1080p',
    });
    expect(hd.statusCode, hd.body).toBe(200);
    const failedId = hd.json().data.taskId as string;
    expect((await revenueOf(failedId)).revenue).toBe('1.094500');

    // Credits nobody paid for bring nothing.
    const gifted = await customer();
    await grantCredits(t, gifted.user.id, 17);
    const free = await requestGeneration(t.app, gifted.token, { model: 'veo3', prompt: 'free' });
    expect(free.statusCode, free.body).toBe(200);
    expect((await revenueOf(free.json().data.taskId)).revenue).toBe('0.000000');

    const worker = testWorker(t, {
      providers: {
        fake: fakeProvider({ polls: 1, failFor: (p) => (p.startsWith('[fail]') ? 'no' : null) }),
      },
      routes: {
        text: [{ provider: 'fake', model: 'm' }],
        image: [{ provider: 'fake', model: 'm' }],
      },
    });
    await drainQueue(t.database.db, worker);
    expect(await revenueOf(ok.json().data.taskId)).toEqual({
      revenue: '0.845750',
      status: 'completed',
    });
    expect(await revenueOf(failedId)).toEqual({ revenue: '0.000000', status: 'failed' });
  });

  it('prices a yearly plan bought at the local checkout at what its twelve months buy', async () => {
    const buyer = await customer();
    const res = await requestCheckout(t.app, buyer.token, {
      type: 'subscription',
      plan_id: 'pro+',
      billing_cycle: 'yearly',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await submitLocalCheckout(t.app, res.json().sessionId)).statusCode).toBe(303);
    // Pro+ yearly: $959 for 12 × 3370 credits; 17 credits = $0.403140, the cheapest credit price
    // the providers card's loss flag compares each route entry with.
    expect(await value(buyer.user.id)).toEqual({ paidMicros: 959_000_000, creditsGranted: 40_440 });
    const video = await requestGeneration(t.app, buyer.token, { model: 'veo3', prompt: 'a dune' });
    expect(video.statusCode, video.body).toBe(200);
    const revenue = (await revenueOf(video.json().data.taskId)).revenue;
    expect(revenue).toBe('0.403140');
    const cheapest = cheapestCredit();
    expect(cheapest.label).toBe('Pro+ yearly');
    expect(Number(revenue)).toBeCloseTo(VIDEO_COST * cheapest.usdPerCredit, 6);
  });

  it("sets a failed video's revenue to 0 when support refunds it", async () => {
    const buyer = await customer();
    await apply(payment(buyer.user.id, 1990, 330));
    await grantCredits(t, buyer.user.id, 17);
    const res = await requestGeneration(t.app, buyer.token, { model: 'veo3', prompt: 'a pier' });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.taskId as string;
    // 17 × 19.90 ÷ 330 = $1.025152 (1.0251515…).
    expect((await revenueOf(id)).revenue).toBe('1.025152');
    // Failed without its refund (as tasks could before refunds were automatic).
    await t.database.db.execute(sql`update video_tasks set status = 'failed' where id = ${id}`);
    const admin = await signInAdmin(t.app);
    const refund = await t.app.inject({
      method: 'POST',
      url: `/api/admin/tasks/${id}/refund`,
      headers: bearer(admin),
    });
    expect(refund.statusCode, refund.body).toBe(200);
    expect(await revenueOf(id)).toEqual({ revenue: '0.000000', status: 'failed' });
  });
});
