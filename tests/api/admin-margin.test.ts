/**
 * GET /api/admin/stats/margin (issue 37, item 5), on PGlite and PostgreSQL, against a hand-computed
 * example that goes through the product's own paths: purchases through the local checkout (one
 * with a 20 % promotion code), a free grant by the administrator, videos generated on the site and
 * made by the real worker on two provider:models whose costs come from content/provider-costs.json
 * (fal-ai/veo3.1 $0.40/s, gemini-omni-1.2-flash $0.07/s: $3.20 and $0.56 for 8 s), one failed and
 * refunded. Every figure per day, per provider:model and in total is checked to the millionth.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import { dailyRange } from '../../server/domains/admin/daily-stats.ts';
import { marginStatsQuery } from '../../server/domains/admin/margin-stats.ts';
import type { MarginStatsResponse } from '../../shared/api/admin-margin.ts';
import { bearer, createTestApp, signInAdmin, signInLocal, type TestApp } from '../helpers/app.ts';
import { requestCheckout, submitLocalCheckout } from '../helpers/billing.ts';
import { expectCreditsInvariant } from '../helpers/credits-invariant.ts';
import { databaseKinds } from '../helpers/database.ts';
import { drainQueue, fakeProvider, requestGeneration, testWorker } from '../helpers/video.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const todayStart = (() => {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
})();
const dayName = (daysAgo: number) =>
  new Date(todayStart - daysAgo * DAY_MS).toISOString().slice(0, 10);

const FAL = { provider: 'fal', model: 'fal-ai/veo3.1' };
const GEMINI = { provider: 'gemini', model: 'gemini-omni-1.2-flash' };
const none = { withoutCost: 0, withoutRevenue: 0 };

type Data = MarginStatsResponse['data'];

describe.each(databaseKinds)('GET /api/admin/stats/margin on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  const fal = fakeProvider({ name: 'fal', polls: 1 });
  const gemini = fakeProvider({
    name: 'gemini',
    polls: 1,
    failFor: (prompt) => (prompt.startsWith('[fail]') ? 'the provider failed' : null),
  });

  beforeAll(async () => {
    t = await createTestApp(kind, { env: { VIDEO_WORKER: 'off', LOG_LEVEL: 'warn' } });
    admin = await signInAdmin(t.app);
    await seed();
  }, 60_000);
  afterAll(async () => {
    // The video left pending (counted nowhere) is made before the ledger's checks.
    await drainQueue(
      t.database.db,
      testWorker(t, { providers: { gemini }, routes: { text: [GEMINI], image: [GEMINI] } }),
    );
    await expectCreditsInvariant(t.database.db);
    await t?.close();
  });

  async function buy(token: string, payload: object) {
    const res = await requestCheckout(t.app, token, payload);
    expect(res.statusCode, res.body).toBe(200);
    const paid = await submitLocalCheckout(t.app, res.json().sessionId as string);
    expect(paid.statusCode, paid.body).toBe(303);
  }

  /** Generates a video and has the worker make it on `entry`; its task id. */
  async function video(token: string, prompt: string, entry: typeof FAL) {
    const res = await requestGeneration(t.app, token, { model: 'veo3', prompt });
    expect(res.statusCode, res.body).toBe(200);
    const worker = testWorker(t, {
      providers: { fal, gemini },
      routes: { text: [entry], image: [entry] },
    });
    await drainQueue(t.database.db, worker);
    return res.json().data.taskId as string;
  }

  /** Moves a finished task to `daysAgo` (its figures stay as the product wrote them). */
  async function finishedOn(id: string, daysAgo: number, time: number) {
    const at = new Date(todayStart - daysAgo * DAY_MS + time);
    await t.database.db.execute(sql`
      update video_tasks set created_at = ${at.toISOString()}::timestamptz - interval '5 minutes',
        completed_at = case when status = 'completed' then ${at.toISOString()}::timestamptz end,
        updated_at = ${at.toISOString()}::timestamptz
      where id = ${id}`);
  }

  async function seed() {
    const code = await t.app.inject({
      method: 'POST',
      url: '/api/admin/promotion-codes',
      headers: bearer(admin),
      payload: { code: 'LAUNCH20', percent_off: 20, applies_to: 'packs' },
    });
    expect(code.statusCode, code.body).toBe(201);

    // Ann: a Starter pack ($19.90, 330 credits) at 20 % off: $15.92; then 70 credits free.
    // 17 credits = 17 × $15.92 ÷ 400 = $0.676600.
    const ann = await signInLocal(t.app, `margin-ann-${kind}@example.com`);
    await buy(ann.token, { type: 'credits', package_id: 'starter', promotion_code: 'launch20' });
    const gift = await t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${ann.user.id}/credits`,
      headers: bearer(admin),
      payload: { amount: 70, reason: 'launch gift' },
    });
    expect(gift.statusCode, gift.body).toBe(200);
    const v1 = await video(ann.token, 'a lighthouse', FAL);
    // Then a Basic pack ($49.90, 950 credits): $65.82 for 1350 credits, so her next video brings
    // 17 × 65.82 ÷ 1350 = $0.828844 (0.8288444… rounded); the first keeps what it brought.
    await buy(ann.token, { type: 'credits', package_id: 'basic' });
    const v4 = await video(ann.token, 'a harbour', GEMINI);

    // Bob: a Lite plan, monthly ($29.90, 590 credits): 17 × 29.90 ÷ 590 = $0.861525 (0.8615254…).
    const bob = await signInLocal(t.app, `margin-bob-${kind}@example.com`);
    await buy(bob.token, { type: 'subscription', plan_id: 'lite', billing_cycle: 'monthly' });
    const v2 = await video(bob.token, 'a meadow', GEMINI);
    // Failed at the provider, refunded: no revenue, and Omni bills no failed job.
    const v3 = await video(bob.token, '[fail] a storm', GEMINI);

    await finishedOn(v1, 1, 10 * 3600_000);
    await finishedOn(v2, 1, 11 * 3600_000);
    await finishedOn(v3, 0, 1000);
    await finishedOn(v4, 0, 2000);
    // A video finished 30 days ago is outside the last 30 days (today is the 30th).
    const old = await video(bob.token, 'an old one', GEMINI);
    await finishedOn(old, 30, 12 * 3600_000);
    // One still being made counts nowhere.
    const pending = await requestGeneration(t.app, bob.token, { model: 'veo3', prompt: 'later' });
    expect(pending.statusCode).toBe(200);
  }

  const get = async (url: string, token: string | null = admin) =>
    t.app.inject({ url, headers: token ? bearer(token) : {} });

  it('answers the hand-computed figures per day, per provider:model and in total', async () => {
    const res = await get('/api/admin/stats/margin?days=30&fresh=true');
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as Data;
    expect(data).toMatchObject({ days: 30, from: dayName(29), to: dayName(0) });
    expect(data.series).toHaveLength(30);
    expect(data.series.filter((d) => d.completed + d.failed > 0)).toEqual([
      {
        // Ann's fal video and Bob's Omni one.
        day: dayName(1),
        completed: 2,
        failed: 0,
        revenueUsd: 1.538125,
        costUsd: 3.76,
        marginUsd: -2.221875,
        marginPercent: -144.5,
        ...none,
      },
      {
        // Bob's failed video (nothing either way) and Ann's second.
        day: dayName(0),
        completed: 1,
        failed: 1,
        revenueUsd: 0.828844,
        costUsd: 0.56,
        marginUsd: 0.268844,
        marginPercent: 32.4,
        ...none,
      },
    ]);
    expect(data.series[0]).toEqual({
      day: dayName(29),
      completed: 0,
      failed: 0,
      revenueUsd: 0,
      costUsd: 0,
      marginUsd: 0,
      marginPercent: null,
      ...none,
    });
    expect(data.models).toEqual([
      {
        ...GEMINI,
        completed: 2,
        failed: 1,
        revenueUsd: 1.690369,
        costUsd: 1.12,
        marginUsd: 0.570369,
        marginPercent: 33.7,
        ...none,
      },
      {
        ...FAL,
        completed: 1,
        failed: 0,
        revenueUsd: 0.6766,
        costUsd: 3.2,
        marginUsd: -2.5234,
        marginPercent: -373,
        ...none,
      },
    ]);
    expect(data.totals).toEqual({
      completed: 3,
      failed: 1,
      revenueUsd: 2.366969,
      costUsd: 4.32,
      marginUsd: -1.953031,
      marginPercent: -82.5,
      ...none,
    });
  });

  it('takes in the day 30 days ago with days=31, and says what it does not know', async () => {
    // A task charged before revenue was recorded, finished without a cost.
    await t.database.db.execute(sql`
      update video_tasks set revenue_usd = null, provider_cost_usd = null
      where prompt = 'an old one'`);
    const data = (await get('/api/admin/stats/margin?days=31&fresh=true')).json().data as Data;
    expect(data.series[0]).toMatchObject({
      day: dayName(30),
      completed: 1,
      revenueUsd: 0,
      costUsd: 0,
      withoutCost: 1,
      withoutRevenue: 1,
    });
    expect(data.totals).toMatchObject({ completed: 4, withoutCost: 1, withoutRevenue: 1 });
  });

  it('is cached for a minute unless fresh, and refuses anyone but an administrator', async () => {
    const first = (await get('/api/admin/stats/margin?days=7')).json().data as Data;
    await t.database.db.execute(sql`update video_tasks set revenue_usd = revenue_usd + 1`);
    const cached = (await get('/api/admin/stats/margin?days=7')).json().data as Data;
    expect(cached).toEqual(first);
    const fresh = (await get('/api/admin/stats/margin?days=7&fresh=true')).json().data as Data;
    expect(fresh.totals.revenueUsd).toBeCloseTo(first.totals.revenueUsd + 4, 6);
    await t.database.db.execute(sql`update video_tasks set revenue_usd = revenue_usd - 1`);
    expect((await get('/api/admin/stats/margin', null)).statusCode).toBe(401);
    const customer = await signInLocal(t.app, `margin-nobody-${kind}@example.com`);
    expect((await get('/api/admin/stats/margin', customer.token)).statusCode).toBe(403);
    const bad = await get('/api/admin/stats/margin?days=91');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain("'days'");
  });

  it('reads the tasks through video_tasks_created_id_idx', async () => {
    const plan = await t.database.db.transaction(async (tx) => {
      // Tiny tables are cheaper to scan; forbid that to see which index the planner can use.
      await tx.execute(sql`set local enable_seqscan = off`);
      const rows = await queryRows<{ 'QUERY PLAN': string }>(
        tx,
        sql`explain ${marginStatsQuery(dailyRange(new Date(), 30))}`,
      );
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('video_tasks_created_id_idx');
  });
});
