/**
 * The worker's routing rules (issue 17, items 3 and 4) with in-memory providers, on PGlite and
 * PostgreSQL: failover only while no provider accepted the job, never after a lost answer;
 * a submit in doubt after a crash is never sent again; the circuit breaker skips a failing
 * provider and shows in the admin overview; refusals everywhere fail at once; a task waiting out
 * a rate limit is refunded only by its deadline; queue positions.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import {
  failureMessage,
  TASK_MESSAGES,
  type FailureKind,
} from '../../server/domains/video/messages.ts';
import {
  VideoProviderError,
  type ProviderErrorKind,
} from '../../server/domains/video/providers/errors.ts';
import type { VideoProvider } from '../../server/domains/video/providers/types.ts';
import { bearer, createTestApp, signInAdmin, signInLocal, type TestApp } from '../helpers/app.ts';
import { expectCreditsInvariant } from '../helpers/credits-invariant.ts';
import { databaseKinds } from '../helpers/database.ts';
import {
  drainQueue,
  fakeProvider,
  grantCredits,
  requestGeneration,
  testWorker,
} from '../helpers/video.ts';
import { VIDEO_COST } from '../../shared/video.ts';

/** A failed task's English error_message, as the refund of VIDEO_COST credits reads. */
const failed = (kind: FailureKind) => failureMessage(kind)(VIDEO_COST).render('en');

/** A provider whose submits all fail with `kind` (counting them). */
function refusing(name: string, kind: ProviderErrorKind, retryAfterMs?: number) {
  const provider = fakeProvider({ name });
  let calls = 0;
  const refuser: VideoProvider & { calls(): number } = {
    ...provider,
    async submit() {
      calls += 1;
      throw new VideoProviderError(`${name} says no (${kind})`, {
        kind,
        status: kind === 'rate_limited' ? 429 : kind === 'unavailable' ? 503 : 400,
        retryAfterMs: retryAfterMs ?? null,
      });
    },
    calls: () => calls,
  };
  return refuser;
}

describe.each(databaseKinds)('video routing on %s', (kind) => {
  let t: TestApp;
  let seq = 0;
  beforeAll(async () => {
    t = await createTestApp(kind, { env: { VIDEO_WORKER: 'off' } });
  });
  afterAll(async () => {
    await expectCreditsInvariant(t.database.db);
    await t.close();
  });

  function worker(providers: VideoProvider[], breaker = { failures: 1000, openMs: 60_000 }) {
    const route = providers.map((p) => ({ provider: p.name, model: `${p.name}-model` }));
    return testWorker(t, {
      providers: Object.fromEntries(providers.map((p) => [p.name, p])),
      routes: { text: route, image: route },
      breaker,
    });
  }

  async function task(prompt = `task ${++seq}`) {
    const user = await signInLocal(t.app, `route-${kind}-${++seq}@example.com`);
    await grantCredits(t, user.user.id, 17);
    const res = await requestGeneration(t.app, user.token, { prompt, model: 'veo3' });
    expect(res.statusCode, res.body).toBe(200);
    return { id: res.json().data.taskId as string, token: user.token };
  }
  const status = async (x: { id: string; token: string }) =>
    (await t.app.inject({ url: `/api/video/status/${x.id}`, headers: bearer(x.token) })).json()
      .data;
  const balance = async (token: string) =>
    (await t.app.inject({ url: '/api/credits/balance', headers: bearer(token) })).json().data
      .total_credits as number;
  const resetHealth = () => t.database.db.execute(sql`delete from video_provider_health`);

  it('a lost submit answer (in doubt) is never failed over: the task fails, refunded once', async () => {
    await resetHealth();
    const doubt = refusing('doubt', 'in_doubt');
    const backup = fakeProvider({ name: 'backup' });
    const x = await task();
    await drainQueue(t.database.db, worker([doubt, backup]));
    expect(await status(x)).toMatchObject({
      status: 'failed',
      error_message: failed('provider'),
    });
    expect(backup.submits.size).toBe(0);
    expect(await balance(x.token)).toBe(17);
  });

  it('a submit sent by a worker that died before recording the answer is not sent again', async () => {
    await resetHealth();
    const provider = fakeProvider({ name: 'solo' });
    const x = await task('crashed mid-submit');
    // What a worker leaves behind when it dies between sending the submit and storing the job.
    await t.database.db.execute(
      sql`update video_tasks set submit_started_at = now() - interval '1 minute' where id = ${x.id}`,
    );
    await drainQueue(t.database.db, worker([provider]));
    expect(provider.submits.size).toBe(0);
    const [row] = await queryRows<{ failure_kind: string }>(
      t.database.db,
      sql`select failure_kind from video_tasks where id = ${x.id}`,
    );
    expect(row?.failure_kind).toBe('in_doubt');
    expect(await balance(x.token)).toBe(17);
  });

  it('refusals at every provider (bad key, bad request) fail at once, refunded', async () => {
    await resetHealth();
    const a = refusing('a', 'rejected');
    const b = refusing('b', 'rejected');
    const x = await task();
    await drainQueue(t.database.db, worker([a, b]));
    expect(await status(x)).toMatchObject({
      status: 'failed',
      error_message: failed('unavailable'),
    });
    expect([a.calls(), b.calls()]).toEqual([1, 1]);
  });

  it('opens the breaker after N failures in a row: the provider is skipped and the admin sees it', async () => {
    await resetHealth();
    const flaky = refusing('flaky', 'unavailable');
    const backup = fakeProvider({ name: 'backup' });
    const w = worker([flaky, backup], { failures: 2, openMs: 60_000 });
    for (let i = 0; i < 4; i++) await task();
    await drainQueue(t.database.db, w);
    expect(flaky.calls()).toBe(2); // then skipped
    expect(backup.submits.size).toBe(4);
    const admin = await signInAdmin(t.app);
    const overview = await t.app.inject({ url: '/api/admin/overview', headers: bearer(admin) });
    const flakyRow = overview
      .json()
      .data.videoProviders.find((p: { provider: string }) => p.provider === 'flaky');
    expect(flakyRow).toMatchObject({
      consecutiveFailures: 2,
      lastError: 'flaky says no (unavailable)',
    });
    expect(Date.parse(flakyRow.breakerOpenUntil)).toBeGreaterThan(Date.now() + 30_000);
  });

  it('a task waiting out a rate limit is refunded only when its deadline passes', async () => {
    await resetHealth();
    const busy = refusing('busy', 'rate_limited', 600_000);
    const x = await task();
    const w = worker([busy]);
    await w.processNext();
    expect(await status(x)).toMatchObject({ status: 'pending' });
    expect(await balance(x.token)).toBe(0);
    // Other tasks do not knock on the provider meanwhile: its Retry-After is shared.
    const y = await task();
    await w.processNext();
    expect(busy.calls()).toBe(1);
    await t.database.db.execute(
      sql`update video_tasks set deadline_at = now() - interval '1 second', run_after = now() where id in (${x.id}, ${y.id})`,
    );
    await drainQueue(t.database.db, w);
    expect(await status(x)).toMatchObject({
      status: 'failed',
      error_message: failed('deadline'),
    });
    expect(await balance(x.token)).toBe(17);
    expect(await balance(y.token)).toBe(17);
  });

  it('shows each waiting task its place in the queue', async () => {
    const before = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from video_tasks where status = 'pending'`,
    );
    expect(before[0]?.n).toBe(0);
    const tasks = [await task(), await task(), await task()];
    const messages = await Promise.all(tasks.map(async (x) => (await status(x)).status_message));
    expect(messages).toEqual([1, 2, 3].map((n) => TASK_MESSAGES.queuedAt(n).render('en')));
    await resetHealth();
    await drainQueue(t.database.db, worker([fakeProvider({ name: 'ok' })]));
  });
});
