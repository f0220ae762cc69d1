/**
 * The adapter conformance suite (issue 17): every production provider, through its fake that
 * speaks the real wire format, driven by the real worker and app on PGlite and PostgreSQL.
 * Each provider must give the same outcomes for the same situations: success (text and image),
 * content-policy refusal, provider failure, 429 with Retry-After (short: waited in the adapter;
 * long: the task waits in our queue), 5xx on submit then failover, webhooks with good and bad
 * signatures and duplicate deliveries, deadline with cancel, and a bad result. After each
 * provider's run the credits invariant holds: every balance equals its ledger, every failed task
 * was refunded exactly once, no completed task was.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import {
  failureMessage,
  TASK_MESSAGES,
  type FailureKind,
} from '../../server/domains/video/messages.ts';
import { PROVIDERS, providerByName } from '../../server/domains/video/providers/index.ts';
import type { VideoProvider } from '../../server/domains/video/providers/types.ts';
import { startFalFake } from '../fakes/fal/index.ts';
import { startGeminiFake } from '../fakes/gemini/index.ts';
import { startReplicateFake } from '../fakes/replicate/index.ts';
import { startVertexFake } from '../fakes/vertex/index.ts';
import type { VideoProviderFake } from '../fakes/video/control.ts';
import { testVideo } from '../fakes/video/test-video.ts';
import { bearer, createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';
import {
  drainQueue,
  fakeProvider,
  grantCredits,
  pngImage,
  requestGeneration,
  testWorker,
} from '../helpers/video.ts';
import { expectCreditsInvariant } from '../helpers/credits-invariant.ts';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { VIDEO_COST } from '../../shared/video.ts';

/** A failed task's English error_message, as the refund of VIDEO_COST credits reads. */
const failed = (kind: FailureKind) => failureMessage(kind)(VIDEO_COST).render('en');

/** One row per hosted provider in PROVIDERS (a test below fails on one without its row). */
const FAKES: Record<string, () => Promise<VideoProviderFake>> = {
  fal: () => startFalFake(),
  replicate: () => startReplicateFake(),
  vertex: () => startVertexFake(),
  gemini: () => startGeminiFake(),
};

it('has a row for every hosted provider PROVIDERS registers', () => {
  const hosted = PROVIDERS.filter((p) => !p.localOnly).map((p) => p.name);
  expect(Object.keys(FAKES)).toEqual(hosted);
});

/** What the descriptor says the adapter does (the suite checks it does). */
const capabilities = (name: string) => providerByName(name)!.capabilities;

const cases = databaseKinds.flatMap((kind) =>
  Object.keys(FAKES).map((provider) => [provider, kind] as const),
);

describe.each(cases)('%s adapter on %s', (name, kind) => {
  let fake: VideoProviderFake;
  let t: TestApp;
  /** A second route entry that always accepts (to see failover happen, or not). */
  let backup: ReturnType<typeof fakeProvider>;
  let seq = 0;

  beforeAll(async () => {
    fake = await FAKES[name]!();
    fake.pollsUntilDone = 1;
    t = await createTestApp(kind, {
      env: {
        ...fake.env,
        VIDEO_ROUTE_TEXT: `${name}:${fake.models.text}`,
        VIDEO_ROUTE_IMAGE: `${name}:${fake.models.image}`,
        // Webhook URLs are sent; tests hand the signed deliveries to the app themselves.
        VIDEO_WEBHOOK_BASE: 'http://127.0.0.1:9',
        VIDEO_WORKER: 'off',
      },
    });
  }, 30_000);
  afterAll(async () => {
    await expectCreditsInvariant(t.database.db);
    await t?.close();
    await fake?.close();
  });

  /** A worker on the app's adapters; `withBackup` adds an always-accepting second entry. */
  function worker(opts: { withBackup?: boolean } = {}) {
    backup = fakeProvider({ name: 'backup', polls: 1 });
    const providers: Record<string, VideoProvider> = { ...t.app.videoProviders, backup };
    const route = (mode: 'text' | 'image') => [
      { provider: name, model: fake.models[mode] },
      ...(opts.withBackup ? [{ provider: 'backup', model: 'backup-model' }] : []),
    ];
    return testWorker(t, {
      providers,
      routes: { text: route('text'), image: route('image') },
      pollIntervalMs: 10,
      webhookBase: 'http://127.0.0.1:9',
      breaker: { failures: 1000, openMs: 1000 },
    });
  }

  /** A signed-in user with credits for `videos` videos. */
  async function customer(videos = 1) {
    const user = await signInLocal(t.app, `${name}-${kind}-${++seq}@example.com`);
    await grantCredits(t, user.user.id, 17 * videos);
    return user;
  }

  async function submit(token: string, prompt: string, image?: Buffer) {
    const res = await requestGeneration(
      t.app,
      token,
      { prompt, model: image ? 'veo3-fast-frames' : 'veo3' },
      image ? { name: 'image', filename: 'frame.png', type: 'image/png', data: image } : undefined,
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.taskId as string;
  }

  const status = async (token: string, id: string) =>
    (await t.app.inject({ url: `/api/video/status/${id}`, headers: bearer(token) })).json().data;

  const row = async (id: string) =>
    (
      await queryRows<Record<string, unknown>>(
        t.database.db,
        sql`select * from video_tasks where id = ${id}`,
      )
    )[0]!;

  const jobsFor = (prompt: string) => fake.jobs.filter((j) => j.prompt === prompt);

  it('text: generates, copies the video into our media store and records the provider facts', async () => {
    const ann = await customer();
    const prompt = `a lighthouse at dusk ${seq}`;
    const id = await submit(ann.token, prompt);
    await drainQueue(t.database.db, worker());
    const s = await status(ann.token, id);
    expect(s).toMatchObject({ status: 'completed', progress: 100, error_message: null });
    expect(s.result_url).toMatch(/^\/media\/[0-9a-f]{32}\.mp4$/);
    const stored = await readFile(path.join(t.dataDir, 'media', path.basename(s.result_url)));
    expect(stored.equals(await fake.video())).toBe(true);
    expect(jobsFor(prompt)).toHaveLength(1);
    const r = await row(id);
    expect(r).toMatchObject({
      provider: name,
      provider_model: fake.models.text,
      provider_request_id: jobsFor(prompt)[0]!.requestId,
      attempts: 1,
    });
    expect(r.submitted_at).not.toBeNull();
    expect(r.provider_finished_at).not.toBeNull();
    expect(r.route_attempts).toMatchObject([{ provider: name, outcome: 'accepted' }]);
  });

  it('image: sends the first frame in the form the provider takes', async () => {
    const ann = await customer();
    const prompt = `the frame comes alive ${seq}`;
    const id = await submit(ann.token, prompt, await pngImage(640, 360));
    await drainQueue(t.database.db, worker());
    expect((await status(ann.token, id)).status).toBe('completed');
    const [job] = jobsFor(prompt);
    expect(job?.model).toBe(fake.models.image);
    expect(job?.image).toMatchObject({ mimeType: 'image/jpeg' });
    expect(job!.image!.bytes).toBeGreaterThan(100);
  });

  it('content policy: fails with our message, refunds once, and is never failed over', async () => {
    const ann = await customer();
    const prompt = `[policy] something the filter refuses ${seq}`;
    const id = await submit(ann.token, prompt);
    await drainQueue(t.database.db, worker({ withBackup: true }));
    const s = await status(ann.token, id);
    expect(s).toMatchObject({ status: 'failed', error_message: failed('content_policy') });
    expect(backup.submits.size).toBe(0);
    const r = await row(id);
    expect(r.failure_kind).toBe('content_policy');
    expect(String(r.provider_error).length).toBeGreaterThan(0);
    expect(await balanceOf(ann.token)).toBe(17);
  });

  it('provider failure: fails with our message (the provider text only in the record), refunded', async () => {
    const ann = await customer();
    const prompt = `[fail] the runner breaks ${seq}`;
    const id = await submit(ann.token, prompt);
    await drainQueue(t.database.db, worker());
    const s = await status(ann.token, id);
    expect(s).toMatchObject({ status: 'failed', error_message: failed('provider') });
    expect((await row(id)).failure_kind).toBe('provider');
    expect(jobsFor(prompt)).toHaveLength(1);
    expect(await balanceOf(ann.token)).toBe(17);
  });

  it('429 with a short Retry-After: the adapter waits it out and submits once', async () => {
    const ann = await customer();
    const prompt = `patience ${seq}`;
    const id = await submit(ann.token, prompt);
    fake.failSubmits(1, { status: 429, retryAfterSeconds: 1 });
    const started = Date.now();
    await drainQueue(t.database.db, worker());
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect((await status(ann.token, id)).status).toBe('completed');
    expect(jobsFor(prompt)).toHaveLength(1);
  });

  it('429 with a long Retry-After: the task waits in our queue (position shown), then runs; no loop', async () => {
    const ann = await customer();
    const prompt = `a long wait ${seq}`;
    const id = await submit(ann.token, prompt);
    fake.failSubmits(1, { status: 429, retryAfterSeconds: 120 });
    const w = worker();
    expect(await w.processNext()).toBe(true);
    const waiting = await status(ann.token, id);
    expect(waiting.status).toBe('pending');
    expect(waiting.status_message).toBe(TASK_MESSAGES.busyQueuedAt(1).render('en'));
    // Not re-claimed while the provider's wait runs: nothing is due.
    expect(await w.processNext()).toBe(false);
    const r = await row(id);
    expect(new Date(String(r.run_after)).getTime() - Date.now()).toBeGreaterThan(100_000);
    expect(r.route_attempts).toMatchObject([
      { provider: name, outcome: 'rate_limited', status: 429 },
    ]);
    // The provider's wait passes (moved back in time), and the task runs once.
    await t.database.db.execute(sql`update video_tasks set run_after = now() where id = ${id}`);
    await t.database.db.execute(
      sql`update video_provider_health set rate_limited_until = null where provider = ${name}`,
    );
    await drainQueue(t.database.db, w);
    expect((await status(ann.token, id)).status).toBe('completed');
    expect(jobsFor(prompt)).toHaveLength(1);
  });

  it('5xx on every submit try: fails over to the next route entry; the provider billed nothing', async () => {
    const ann = await customer();
    const prompt = `fail over ${seq}`;
    const id = await submit(ann.token, prompt);
    // Three tries: the adapters' default retry budget for a submit (http.ts).
    fake.failSubmits(3, { status: 503 });
    await drainQueue(t.database.db, worker({ withBackup: true }));
    expect((await status(ann.token, id)).status).toBe('completed');
    expect(jobsFor(prompt)).toHaveLength(0);
    expect(backup.submits.get(prompt)).toBe(1);
    const r = await row(id);
    expect(r).toMatchObject({ provider: 'backup', provider_model: 'backup-model', attempts: 2 });
    expect(r.route_attempts).toMatchObject([
      { provider: name, outcome: 'unavailable', status: 503 },
      { provider: 'backup', outcome: 'accepted' },
    ]);
  });

  it('deadline: cancels the job at the provider, then refunds once', async () => {
    const ann = await customer();
    const prompt = `[hang] never ends ${seq}`;
    const id = await submit(ann.token, prompt);
    const w = worker();
    await w.processNext(); // submitted
    expect(jobsFor(prompt)).toHaveLength(1);
    await t.database.db.execute(
      sql`update video_tasks set deadline_at = now() - interval '1 second', run_after = now() where id = ${id}`,
    );
    await drainQueue(t.database.db, w);
    const s = await status(ann.token, id);
    expect(s).toMatchObject({ status: 'failed', error_message: failed('deadline') });
    expect(jobsFor(prompt)[0]!.canceled).toBe(capabilities(name).cancel);
    expect(await balanceOf(ann.token)).toBe(17);
  });

  it('a result that fails our check (1 s long) fails the task and refunds it', async () => {
    const ann = await customer();
    const prompt = `too short ${seq}`;
    const id = await submit(ann.token, prompt);
    const good = fake.video;
    fake.video = () => testVideo({ seconds: 1 });
    try {
      await drainQueue(t.database.db, worker());
    } finally {
      fake.video = good;
    }
    expect(await status(ann.token, id)).toMatchObject({
      status: 'failed',
      error_message: failed('result'),
    });
    expect(await balanceOf(ann.token)).toBe(17);
  });

  it.runIf(capabilities(name).webhooks)(
    'webhooks: a good signature checks the job at once; a bad or replayed one changes nothing',
    async () => {
      const ann = await customer();
      const prompt = `webhook me ${seq}`;
      const id = await submit(ann.token, prompt);
      const w = worker();
      await w.processNext(); // submitted
      const [job] = jobsFor(prompt);
      expect(job?.webhookUrl).toBe(`http://127.0.0.1:9/api/video/webhooks/${name}`);
      // As with webhooks on: the next poll is far away.
      await t.database.db.execute(
        sql`update video_tasks set run_after = now() + interval '1 hour' where id = ${id}`,
      );
      const post = async (opts: { tamper?: boolean; stale?: boolean } = {}) => {
        const hook = await fake.signedWebhook!(job!.requestId, opts);
        return t.app.inject({
          method: 'POST',
          url: `/api/video/webhooks/${name}`,
          headers: hook.headers as Record<string, string>,
          payload: hook.rawBody,
        });
      };
      for (const bad of [{ tamper: true }, { stale: true }]) {
        const res = await post(bad);
        expect(res.statusCode, JSON.stringify(bad)).toBe(400);
        expect(res.json().message).toContain('signature');
      }
      // A session is no signature.
      const unsigned = await t.app.inject({
        method: 'POST',
        url: `/api/video/webhooks/${name}`,
        headers: { ...bearer(ann.token), 'content-type': 'application/json' },
        payload: JSON.stringify({ request_id: job!.requestId, id: job!.requestId }),
      });
      expect(unsigned.statusCode).toBe(400);
      expect(await w.processNext()).toBe(false);
      fake.pollsUntilDone = 0;
      const good = await post();
      expect(good.statusCode, good.body).toBe(200);
      expect(good.json()).toMatchObject({ received: true, tasks: 1 });
      await drainQueue(t.database.db, w);
      fake.pollsUntilDone = 1;
      expect((await status(ann.token, id)).status).toBe('completed');
      // Delivered again (providers retry): acknowledged, and nothing moves.
      const again = await post();
      expect(again.json()).toMatchObject({ received: true, tasks: 0 });
      expect(jobsFor(prompt)).toHaveLength(1);
      expect(await balanceOf(ann.token)).toBe(0);
    },
  );

  const balanceOf = async (token: string) =>
    (await t.app.inject({ url: '/api/credits/balance', headers: bearer(token) })).json().data
      .total_credits as number;
});
