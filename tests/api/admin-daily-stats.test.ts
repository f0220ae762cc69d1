/**
 * GET /api/admin/stats/daily (issue 18): the overview's per-day charts. Ledger rows and tasks are
 * written straight into the tables on chosen days, and every figure of the answer is checked:
 * credits sold (purchases only), videos generated, failure rate, p50/p95 latency, and the days
 * with nothing in them. The app's clock is fixed at noon (UTC) today, so day boundaries do not
 * depend on when the test runs.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import { creditTransactions, videoTasks } from '../../server/db/schema.ts';
import type { DailyStat } from '../../server/contracts/admin-stats.ts';
import {
  PURCHASE_SOURCE_TYPES,
  dailyRange,
  dailyStatsQuery,
} from '../../server/domains/admin/daily-stats.ts';
import { bearer, createTestApp, signInAdmin, signInLocal, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const todayStart = (() => {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
})();
/** An instant `daysAgo` UTC days before today, at `hh:mm:ss` (UTC) and `ms` milliseconds. */
const at = (daysAgo: number, time = '12:00:00', ms = 0) => {
  const [h, m, s] = time.split(':').map(Number) as [number, number, number];
  return new Date(todayStart - daysAgo * DAY_MS + ((h * 60 + m) * 60 + s) * 1000 + ms);
};
const dayName = (daysAgo: number) => at(daysAgo).toISOString().slice(0, 10);

interface Answer {
  days: number;
  from: string;
  to: string;
  generatedAt: string;
  series: DailyStat[];
}

describe.each(databaseKinds)('GET /api/admin/stats/daily on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let customer: { token: string; user: { id: string } };
  let clock = at(0, '12:00:00');
  let balance = 0;

  beforeAll(async () => {
    t = await createTestApp(kind, { deps: { now: () => clock } });
    adminToken = await signInAdmin(t.app);
    customer = await signInLocal(t.app, 'chart-customer@example.com', 'Chart Customer');
    await seed();
  });
  afterAll(() => t.close());

  /** A ledger row as the domains write them (balance_after kept consistent for the check). */
  async function ledger(sourceType: string, amount: number, createdAt: Date) {
    balance += amount;
    await t.database.db.insert(creditTransactions).values({
      userId: customer.user.id,
      amount,
      balanceAfter: Math.max(0, balance),
      sourceType,
      sourceId: randomUUID(),
      description: `${sourceType} test row`,
      createdAt,
    });
  }

  /** A task that finished (or not) at the given times. */
  async function task(
    status: 'pending' | 'processing' | 'completed' | 'failed',
    createdAt: Date,
    finishedAt: Date | null,
  ) {
    await t.database.db.insert(videoTasks).values({
      id: randomUUID(),
      userId: customer.user.id,
      model: 'veo3',
      mode: 'text',
      prompt: 'A lighthouse at dawn',
      provider: 'local',
      status,
      deadlineAt: new Date(createdAt.getTime() + 20 * 60_000),
      creditsCharged: 17,
      createdAt,
      // The worker sets completed_at on success only; a failure's time is its last write.
      completedAt: status === 'completed' ? finishedAt : null,
      updatedAt: finishedAt ?? createdAt,
    });
  }

  const secondsLater = (from: Date, seconds: number) => new Date(from.getTime() + seconds * 1000);

  async function seed() {
    // Yesterday: two purchases, and rows that are not sales.
    await ledger('checkout', 100, at(1, '10:00:00'));
    await ledger('stripe_invoice', 200, at(1, '23:59:59', 999));
    await ledger('admin_adjustment', 500, at(1, '11:00:00'));
    await ledger('refund', 17, at(1, '11:00:01'));
    await ledger('video_task', -17, at(1, '11:00:02'));
    await ledger('stripe_dispute_release', 50, at(1, '11:00:03'));
    await ledger('stripe_refund', -100, at(1, '11:00:04'));
    // Three days ago: subscription grants.
    await ledger('subscription_month', 300, at(3, '08:00:00'));
    await ledger('local_renewal', 50, at(3, '09:00:00'));
    // Today, on the stroke of midnight (today's, not yesterday's).
    await ledger('checkout', 40, at(0, '00:00:00'));
    // The range of 7 days starts 6 days ago: its first instant is in, the one before is not.
    await ledger('checkout', 7, at(6, '00:00:00'));
    await ledger('checkout', 1000, at(6, '00:00:00', -1));

    // Yesterday: four successes taking 10, 20, 30 and 40 s, one failure, one still pending.
    for (const [i, seconds] of [10, 20, 30, 40].entries()) {
      const created = at(1, `0${i + 1}:00:00`);
      await task('completed', created, secondsLater(created, seconds));
    }
    await task('failed', at(1, '06:00:00'), at(1, '06:05:00'));
    await task('pending', at(1, '07:00:00'), null);
    // Three days ago: one failure only.
    await task('failed', at(3, '10:00:00'), at(3, '10:20:00'));
    // Created before midnight, done after: counted today, 20 s.
    await task('completed', at(1, '23:59:50'), at(0, '00:00:10'));
    // Finished 8 days ago: outside a 7-day range.
    const old = at(8, '12:00:00');
    await task('completed', old, secondsLater(old, 5));
  }

  const get = (url: string, token: string | null = adminToken) =>
    t.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });

  async function daily(days?: number): Promise<Answer> {
    const res = await get(`/api/admin/stats/daily${days ? `?days=${days}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { success: boolean; data: Answer };
    expect(body.success).toBe(true);
    return body.data;
  }

  const quiet = (day: string): DailyStat => ({
    day,
    creditsSold: 0,
    videosGenerated: 0,
    failedTasks: 0,
    failureRate: null,
    latencyP50Seconds: null,
    latencyP95Seconds: null,
  });

  it('answers every day of the last 7 with each figure', async () => {
    const data = await daily(7);
    expect(data).toMatchObject({ days: 7, from: dayName(6), to: dayName(0) });
    expect(data.generatedAt).toBe(clock.toISOString());
    expect(data.series).toEqual([
      { ...quiet(dayName(6)), creditsSold: 7 },
      quiet(dayName(5)),
      quiet(dayName(4)),
      { ...quiet(dayName(3)), creditsSold: 350, failedTasks: 1, failureRate: 1 },
      quiet(dayName(2)),
      {
        day: dayName(1),
        creditsSold: 300,
        videosGenerated: 4,
        failedTasks: 1,
        failureRate: 0.2,
        // percentile_cont interpolates: halfway between 20 and 30; 30 + 0.85 × (40 − 30).
        latencyP50Seconds: 25,
        latencyP95Seconds: 38.5,
      },
      {
        day: dayName(0),
        creditsSold: 40,
        videosGenerated: 1,
        failedTasks: 0,
        failureRate: 0,
        latencyP50Seconds: 20,
        latencyP95Seconds: 20,
      },
    ]);
  });

  it('covers the last 30 days by default, oldest first, and 90 at most', async () => {
    const data = await daily();
    expect(data.days).toBe(30);
    expect(data.series).toHaveLength(30);
    expect(data.series[0]!.day).toBe(dayName(29));
    expect(data.series.at(-1)!.day).toBe(dayName(0));
    // The row one millisecond before the 7-day range and the 8-day-old task are in this one.
    expect(data.series.find((d) => d.day === dayName(7))!.creditsSold).toBe(1000);
    expect(data.series.find((d) => d.day === dayName(8))!.videosGenerated).toBe(1);
    const sold = data.series.reduce((sum, d) => sum + d.creditsSold, 0);
    expect(sold).toBe(7 + 350 + 300 + 40 + 1000);
    expect((await daily(90)).series).toHaveLength(90);
    expect((await daily(1)).series).toEqual([(await daily(7)).series.at(-1)]);
  });

  it('serves the same answer for a minute, then reads again', async () => {
    const before = await daily(2);
    await ledger('checkout', 5, at(0, '11:00:00'));
    clock = new Date(clock.getTime() + 59_000);
    expect(await daily(2)).toEqual(before);
    clock = new Date(clock.getTime() + 2_000);
    const after = await daily(2);
    expect(after.series.at(-1)!.creditsSold).toBe(before.series.at(-1)!.creditsSold + 5);
    expect(after.generatedAt).toBe(clock.toISOString());
  });

  it("reads now on an admin's Refresh (fresh=true), and later loads get that answer", async () => {
    const before = await daily(2);
    await ledger('checkout', 7, at(0, '11:30:00'));
    clock = new Date(clock.getTime() + 1_000);
    expect(await daily(2)).toEqual(before);
    const res = await get('/api/admin/stats/daily?days=2&fresh=true');
    const now = (res.json() as { data: Answer }).data;
    expect(now.series.at(-1)!.creditsSold).toBe(before.series.at(-1)!.creditsSold + 7);
    expect(await daily(2)).toEqual(now);
  });

  it.each(['0', '91', '-3', '7.5', 'week', '', '7&days=8', '1e9'])(
    'refuses days=%s with a 400 naming the field',
    async (days) => {
      const res = await get(`/api/admin/stats/daily?days=${days}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
      expect((res.json() as { message: string }).message).toContain("'days'");
    },
  );

  it('refuses anyone who is not an administrator', async () => {
    expect((await get('/api/admin/stats/daily', null)).statusCode).toBe(401);
    expect((await get('/api/admin/stats/daily', customer.token)).statusCode).toBe(403);
  });

  it('reads both tables through their created_at indexes', async () => {
    const plan = await t.database.db.transaction(async (tx) => {
      // Tiny tables are cheaper to scan; forbid that to see which index the planner can use.
      await tx.execute(sql`set local enable_seqscan = off`);
      const rows = await queryRows<{ 'QUERY PLAN': string }>(
        tx,
        sql`explain ${dailyStatsQuery(dailyRange(clock, 30))}`,
      );
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('video_tasks_created_id_idx');
    expect(plan).toContain('credit_transactions_created_idx');
  });
});

describe('credits sold', () => {
  it('classes every ledger source billing writes as a purchase or not', () => {
    // Billing's grants and takebacks, as written in its source: a new kind must be classed here.
    const NOT_SALES = ['stripe_refund', 'stripe_dispute_hold', 'stripe_dispute_release'];
    const dir = path.resolve(import.meta.dirname, '../../server/domains/billing');
    const found = new Set<string>();
    for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts')) continue;
      const text = readFileSync(path.join(dir, file), 'utf8');
      // A ledger source as an object `{ type, id }` (not a money event's `item: { type, id }`).
      for (const m of text.matchAll(
        /sourceType: '([a-z_]+)'|(?<!item: )\{ type: '([a-z_]+)', id:/g,
      )) {
        found.add(m[1] ?? m[2]!);
      }
    }
    expect([...found].sort()).toEqual([...PURCHASE_SOURCE_TYPES, ...NOT_SALES].sort());
  });
});
