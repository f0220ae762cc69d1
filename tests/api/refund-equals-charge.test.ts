/**
 * A refund returns what the task was charged (issue 32 item 6): the submit records the credits it
 * debited (video_tasks.credits_charged, in the debit's transaction) and every refund path returns
 * exactly that, whatever a video costs by then. The price changes between the charge and the
 * refund here by charging through video services priced differently (the service's cost is
 * injectable; the worker's refund reads no price at all).
 */
import { PRICE_TABLE } from '../../shared/video-options.ts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import { users } from '../../server/db/schema.ts';
import { createVideoMedia } from '../../server/domains/video/media.ts';
import { createVideoService } from '../../server/domains/video/service.ts';
import { VIDEO_COST } from '../../shared/video.ts';
import { createTestApp, creditBalance, signInLocal, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';
import { drainQueue, fakeProvider, grantCredits, routesTo, testWorker } from '../helpers/video.ts';

describe.each(databaseKinds)('a refund equals the charge on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const LOCAL = { provider: 'local', model: 'local' } as const;
  /** The video service as it would run with a video priced at `videoCost`. */
  const pricedAt = (videoCost: number) =>
    createVideoService({
      db: t.database.db,
      media: createVideoMedia(t.app.mediaStore, t.dataDir),
      routes: { text: [LOCAL], image: [LOCAL] },
      deadlineMs: 60_000,
      prices: { ...PRICE_TABLE, video: videoCost },
    });

  async function userWith(email: string, credits: number) {
    const { token, user } = await signInLocal(t.app, email);
    await grantCredits(t, user.id, credits);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    return { token, row: row! };
  }

  const ledger = (taskId: string) =>
    queryRows<{ source_type: string; amount: number }>(
      t.database.db,
      sql`select source_type, amount from credit_transactions
          where source_id = ${taskId} order by created_at, source_type desc`,
    );
  const charged = async (taskId: string) =>
    (
      await queryRows<{ credits_charged: number }>(
        t.database.db,
        sql`select credits_charged from video_tasks where id = ${taskId}`,
      )
    )[0]?.credits_charged;

  it('a failed video charged before a price change gets back what it paid, not the new price', async () => {
    // 17 at the charge; the price then rises to 20 for the next video.
    const { token, row } = await userWith('price-rise@example.com', 100);
    const before = await pricedAt(17).submit(row, {
      prompt: 'old price',
      model: 'veo3',
      image: undefined,
    });
    const [afterRise] = await t.database.db.select().from(users).where(eq(users.id, row.id));
    const after = await pricedAt(20).submit(afterRise!, {
      prompt: 'new price',
      model: 'veo3',
      image: undefined,
    });
    expect(before.remainingCredits).toBe(83);
    expect(after.remainingCredits).toBe(63);
    expect(await charged(before.taskId)).toBe(17);
    expect(await charged(after.taskId)).toBe(20);

    // Both fail at the provider; the worker refunds each without knowing any price.
    const provider = fakeProvider({ polls: 1, failFor: () => 'The provider gave up.' });
    await drainQueue(
      t.database.db,
      testWorker(t, { providers: { fake: provider }, routes: routesTo('fake') }),
    );
    expect(await ledger(before.taskId)).toEqual([
      { source_type: 'video_task', amount: -17 },
      { source_type: 'refund', amount: 17 },
    ]);
    expect(await ledger(after.taskId)).toEqual([
      { source_type: 'video_task', amount: -20 },
      { source_type: 'refund', amount: 20 },
    ]);
    expect(await creditBalance(t.app, token)).toBe(100);
  });

  it('a task past its deadline refunds its own charge, not VIDEO_COST', async () => {
    const cost = VIDEO_COST + 6;
    const { token, row } = await userWith('deadline-price@example.com', 40);
    const { taskId, remainingCredits } = await pricedAt(cost).submit(row, {
      prompt: 'too slow',
      model: 'veo3',
      image: undefined,
    });
    expect(remainingCredits).toBe(40 - cost);
    await t.database.db.execute(
      sql`update video_tasks set deadline_at = now() - interval '1 minute' where id = ${taskId}`,
    );
    await drainQueue(
      t.database.db,
      testWorker(t, { providers: { fake: fakeProvider() }, routes: routesTo('fake') }),
    );
    expect(await ledger(taskId)).toEqual([
      { source_type: 'video_task', amount: -cost },
      { source_type: 'refund', amount: cost },
    ]);
    expect(await creditBalance(t.app, token)).toBe(40);
  });

  it('the charge and credits_charged are written together: a refused submit leaves neither', async () => {
    const { token, row } = await userWith('too-poor@example.com', 19);
    await expect(
      pricedAt(20).submit(row, { prompt: 'cannot pay', model: 'veo3', image: undefined }),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
    const tasks = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from video_tasks where user_id = ${row.id}`,
    );
    expect(tasks[0]?.n).toBe(0);
    expect(await creditBalance(t.app, token)).toBe(19);
  });
});
