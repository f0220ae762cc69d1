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
import type {
  VideoJobInput,
  VideoMode,
  VideoProvider,
} from '../../server/domains/video/providers/types.ts';
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
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { VIDEO_COST } from '../../shared/video.ts';
import {
  DEFAULT_OPTIONS,
  EXTEND_SECONDS,
  MAX_SEED,
  type VideoOptions,
} from '../../shared/video-options.ts';
import { unsupportedOption } from '../../server/domains/video/providers/capabilities.ts';
import type { VertexFake } from '../fakes/vertex/types.ts';
import {
  DEFAULT_SHAPE,
  fakeVideoSize,
  mp4Seconds,
  mp4Size,
  shapedVideo,
} from '../fakes/video/shape.ts';

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

/** Where each provider's body carries the shape, resolution and seed (issue 35). */
/** A JSON body as a fake logged it (read loosely: the assertions say what it must hold). */
type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SHAPE_FIELDS: Record<string, (b: Body) => unknown> = {
  fal: (b) => ({ aspect: b.aspect_ratio, resolution: b.resolution, seed: b.seed }),
  replicate: (b) => ({
    aspect: b.input.aspect_ratio,
    resolution: b.input.resolution,
    seed: b.input.seed,
  }),
  vertex: (b) => ({
    aspect: b.parameters.aspectRatio,
    resolution: b.parameters.resolution,
    seed: b.parameters.seed,
  }),
  gemini: (b) => ({
    aspect: b.response_format.aspect_ratio,
    resolution: b.response_format.resolution,
    seed: b.generation_config.seed,
  }),
};

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

  it('options: 9:16 and a seed reach the provider in its own fields; the video comes back portrait', async () => {
    const ann = await customer();
    const prompt = `a lighthouse for a phone screen ${seq}`;
    const res = await requestGeneration(t.app, ann.token, {
      prompt,
      model: 'veo3',
      aspect_ratio: '9:16',
      seed: '42',
    });
    expect(res.statusCode, res.body).toBe(200);
    await drainQueue(t.database.db, worker());
    expect(await status(ann.token, res.json().data.taskId)).toMatchObject({ status: 'completed' });
    expect(jobsFor(prompt)).toHaveLength(1);
    const sent = (fake.requests as Array<{ body?: Body }>)
      .map((r) => r.body)
      .filter((b) => JSON.stringify(b ?? {}).includes(prompt));
    expect(sent).toHaveLength(1);
    // 720p is the default, sent as ever. (1080p through the app waits for the credits invariant
    // of tests/resilience/invariants.ts to compare with credits_charged instead of 17.)
    expect(SHAPE_FIELDS[name]!(sent[0]!)).toEqual({ aspect: '9:16', resolution: '720p', seed: 42 });
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

/*
 * Issue 35: each creative option through each fake that supports it, adapter by adapter. The body
 * the fake received is asserted field by field (so a wrong name or value fails here, and the
 * strict fake would refuse it with the provider's own 422/400), and the video that comes back
 * has the shape and length asked for. Every option a route model cannot do is refused by its
 * descriptor's capabilities, and the adapter never sends it.
 */
type OptionCase =
  | 'spec clip'
  | 'aspect_ratio'
  | 'resolution'
  | 'tier'
  | 'negative_prompt'
  | 'seed'
  | 'last_frame'
  | 'reference_images'
  | 'extend';

const PROMPT = 'A lighthouse at dusk, waves against the rocks';
const NEGATIVE = 'no text overlays, no watermark';

const OPTION_CASES: Record<OptionCase, { mode: VideoMode; options: Partial<VideoOptions> }> = {
  'spec clip': { mode: 'text', options: {} },
  aspect_ratio: { mode: 'text', options: { aspectRatio: '9:16' } },
  resolution: { mode: 'text', options: { resolution: '1080p' } },
  tier: { mode: 'text', options: { tier: 'fast' } },
  negative_prompt: { mode: 'text', options: { negativePrompt: NEGATIVE } },
  seed: { mode: 'text', options: { seed: MAX_SEED } },
  last_frame: { mode: 'image', options: { lastFrame: true } },
  reference_images: { mode: 'text', options: { referenceImages: 2 } },
  extend: { mode: 'text', options: { extend: true } },
};

/** The images and source video the option jobs send (distinct, so their order shows). */
interface OptionInputs {
  first: Buffer;
  last: Buffer;
  refs: Buffer[];
  source: Buffer;
}

const uri = (data: Buffer, type = 'image/png') => `data:${type};base64,${data.toString('base64')}`;
const b64 = (data: Buffer, mimeType = 'image/png') => ({
  bytesBase64Encoded: data.toString('base64'),
  mimeType,
});

type Expected = { path: string; body: unknown } | { refused: string };

/** What each fake must receive for each option (or which field the capabilities refuse). */
const EXPECTED: Record<
  string,
  (i: OptionInputs, fake: VideoProviderFake) => Record<OptionCase, Expected>
> = {
  fal: (i) => {
    const clip = (extra: Record<string, unknown> = {}) => ({
      prompt: PROMPT,
      duration: '8s',
      aspect_ratio: '16:9',
      resolution: '720p',
      generate_audio: true,
      ...extra,
    });
    return {
      'spec clip': { path: '/fal-ai/veo3.1', body: clip() },
      aspect_ratio: { path: '/fal-ai/veo3.1', body: clip({ aspect_ratio: '9:16' }) },
      resolution: { path: '/fal-ai/veo3.1', body: clip({ resolution: '1080p' }) },
      tier: { path: '/fal-ai/veo3.1/fast', body: clip() },
      negative_prompt: { path: '/fal-ai/veo3.1', body: clip({ negative_prompt: NEGATIVE }) },
      seed: { path: '/fal-ai/veo3.1', body: clip({ seed: MAX_SEED }) },
      last_frame: {
        path: '/fal-ai/veo3.1/first-last-frame-to-video',
        body: clip({ first_frame_url: uri(i.first), last_frame_url: uri(i.last) }),
      },
      reference_images: {
        path: '/fal-ai/veo3.1/reference-to-video',
        body: clip({ image_urls: i.refs.map((r) => uri(r)) }),
      },
      extend: {
        path: '/fal-ai/veo3.1/extend-video',
        body: clip({ video_url: uri(i.source, 'video/mp4'), duration: '7s' }),
      },
    };
  },
  replicate: (i) => {
    const at = (model: string) => `/v1/models/google/${model}/predictions`;
    const input = (extra: Record<string, unknown> = {}) => ({
      input: {
        prompt: PROMPT,
        duration: 8,
        aspect_ratio: '16:9',
        resolution: '720p',
        generate_audio: true,
        ...extra,
      },
    });
    return {
      'spec clip': { path: at('veo-3.1'), body: input() },
      aspect_ratio: { path: at('veo-3.1'), body: input({ aspect_ratio: '9:16' }) },
      resolution: { path: at('veo-3.1'), body: input({ resolution: '1080p' }) },
      tier: { path: at('veo-3.1-fast'), body: input() },
      negative_prompt: { path: at('veo-3.1'), body: input({ negative_prompt: NEGATIVE }) },
      seed: { path: at('veo-3.1'), body: input({ seed: MAX_SEED }) },
      // The image route is google/veo-3.1-fast (the fake's models.image).
      last_frame: {
        path: at('veo-3.1-fast'),
        body: input({ image: uri(i.first), last_frame: uri(i.last) }),
      },
      reference_images: {
        path: at('veo-3.1'),
        body: input({ reference_images: i.refs.map((r) => uri(r)) }),
      },
      extend: { refused: 'extend_task_id' },
    };
  },
  vertex: (i, fake) => {
    const v = fake as VertexFake;
    const at = (model: string) =>
      `/v1/projects/${v.project}/locations/${v.location}/publishers/google/models/${model}:predictLongRunning`;
    const body = (instance: Record<string, unknown>, parameters: Record<string, unknown> = {}) => ({
      instances: [{ prompt: PROMPT, ...instance }],
      parameters: {
        durationSeconds: 8,
        aspectRatio: '16:9',
        generateAudio: true,
        resolution: '720p',
        sampleCount: 1,
        ...parameters,
      },
    });
    const standard = at('veo-3.1-generate-001');
    return {
      'spec clip': { path: standard, body: body({}) },
      aspect_ratio: { path: standard, body: body({}, { aspectRatio: '9:16' }) },
      resolution: { path: standard, body: body({}, { resolution: '1080p' }) },
      tier: { path: at('veo-3.1-fast-generate-001'), body: body({}) },
      negative_prompt: { path: standard, body: body({}, { negativePrompt: NEGATIVE }) },
      seed: { path: standard, body: body({}, { seed: MAX_SEED }) },
      // The image route is veo-3.1-fast-generate-001 (the fake's models.image).
      last_frame: {
        path: at('veo-3.1-fast-generate-001'),
        body: body({ image: b64(i.first), lastFrame: b64(i.last) }),
      },
      reference_images: {
        path: standard,
        body: body({
          referenceImages: i.refs.map((r) => ({ image: b64(r), referenceType: 'asset' })),
        }),
      },
      extend: {
        path: standard,
        body: body({ video: b64(i.source, 'video/mp4') }, { durationSeconds: 7 }),
      },
    };
  },
  gemini: (i) => {
    const body = (
      extra: {
        input?: unknown;
        task?: string;
        seed?: number;
        format?: Record<string, unknown>;
      } = {},
    ) => ({
      model: 'gemini-omni-1.2-flash',
      input: extra.input ?? PROMPT,
      background: true,
      response_format: {
        type: 'video',
        aspect_ratio: '16:9',
        duration: '8s',
        resolution: '720p',
        delivery: 'uri',
        ...extra.format,
      },
      generation_config: {
        video_config: { task: extra.task ?? 'text_to_video' },
        ...(extra.seed === undefined ? {} : { seed: extra.seed }),
      },
    });
    const path = '/v1beta/interactions';
    return {
      'spec clip': { path, body: body() },
      aspect_ratio: { path, body: body({ format: { aspect_ratio: '9:16' } }) },
      resolution: { path, body: body({ format: { resolution: '1080p' } }) },
      tier: { refused: 'tier' },
      negative_prompt: { refused: 'negative_prompt' },
      // The API's seed is an int32: 2³²−1 wraps to 2³¹−1.
      seed: { path, body: body({ seed: 2 ** 31 - 1 }) },
      last_frame: { refused: 'last_frame' },
      reference_images: {
        path,
        body: body({
          task: 'reference_to_video',
          input: [
            { type: 'text', text: PROMPT },
            ...i.refs.map((r) => ({
              type: 'image',
              data: r.toString('base64'),
              mime_type: 'image/png',
            })),
          ],
        }),
      },
      extend: { refused: 'extend_task_id' },
    };
  },
};

/** Each provider's error body, around the words the table below expects. */
const FORMATS: Record<string, object> = {
  fal: { detail: [expect.objectContaining({ loc: expect.any(Array), type: expect.any(String) })] },
  replicate: { title: 'Input validation failed', status: 422, invalid_fields: expect.any(Array) },
  vertex: { error: { code: 400, status: 'INVALID_ARGUMENT' } },
  gemini: { error: { code: 400, status: 'INVALID_ARGUMENT' } },
};

/**
 * Wrong names or values, as an adapter bug would send them: each fake refuses them in its
 * provider's own words (fal: 422 `{detail: [{loc, msg, type}]}` on the result; Replicate: 422
 * with `invalid_fields`; Google: 400 INVALID_ARGUMENT).
 */
const MUTATIONS: Record<string, Array<[string, OptionCase, (b: Body) => void, number, RegExp]>> = {
  fal: [
    [
      'negative prompt under another name',
      'negative_prompt',
      (b) => ((b.negativePrompt = b.negative_prompt), delete b.negative_prompt),
      422,
      /"loc":\["body","negativePrompt"\],"msg":"Extra inputs are not permitted","type":"extra_forbidden"/,
    ],
    [
      'a shape fal does not make',
      'aspect_ratio',
      (b) => (b.aspect_ratio = '1:1'),
      422,
      /"loc":\["body","aspect_ratio"\],"msg":"Input should be '16:9' or '9:16'","type":"literal_error"/,
    ],
    [
      'a seed on reference-to-video',
      'reference_images',
      (b) => (b.seed = 1),
      422,
      /"loc":\["body","seed"\],"msg":"Extra inputs are not permitted"/,
    ],
    [
      'an 8 s extension',
      'extend',
      (b) => (b.duration = '8s'),
      422,
      /"loc":\["body","duration"\],"msg":"Input should be '7s'","type":"literal_error"/,
    ],
  ],
  replicate: [
    [
      'negative prompt under another name',
      'negative_prompt',
      (b) => ((b.input.negativePrompt = b.input.negative_prompt), delete b.input.negative_prompt),
      422,
      /"description":"Additional property negativePrompt is not allowed"/,
    ],
    [
      'a resolution Replicate does not make',
      'resolution',
      (b) => (b.input.resolution = '4k'),
      422,
      /"type":"enum","field":"input.resolution"/,
    ],
    [
      'reference images in 9:16',
      'reference_images',
      (b) => (b.input.aspect_ratio = '9:16'),
      422,
      /"field":"input.reference_images","description":"reference_images are only supported with aspect_ratio 16:9/,
    ],
    [
      'a seed as text',
      'seed',
      (b) => (b.input.seed = String(b.input.seed)),
      422,
      /"description":"Invalid type. Expected: integer, given: string"/,
    ],
  ],
  vertex: [
    [
      'negative prompt under another name',
      'negative_prompt',
      (b) => (
        (b.parameters.negative_prompt = b.parameters.negativePrompt),
        delete b.parameters.negativePrompt
      ),
      400,
      /Unknown name \\"negative_prompt\\" at 'parameters'/,
    ],
    [
      'a style reference',
      'reference_images',
      (b) => (b.instances[0].referenceImages[0].referenceType = 'style'),
      400,
      /Unsupported referenceType: style/,
    ],
    [
      'an 8 s extension',
      'extend',
      (b) => (b.parameters.durationSeconds = 8),
      400,
      /Unsupported durationSeconds for video extension: 8/,
    ],
    [
      'a last frame without a first',
      'last_frame',
      (b) => delete b.instances[0].image,
      400,
      /lastFrame requires an input image/,
    ],
  ],
  gemini: [
    [
      'a seed outside int32',
      'seed',
      (b) => (b.generation_config.seed = 2 ** 32 - 1),
      400,
      /generation_config.seed' \(TYPE_INT32\), 4294967295/,
    ],
    [
      'a shape Omni does not make',
      'aspect_ratio',
      (b) => (b.response_format.aspect_ratio = '1:1'),
      400,
      /response_format.aspect_ratio' \(TYPE_ENUM\)/,
    ],
    [
      'a negative prompt',
      'spec clip',
      (b) => (b.negative_prompt = 'blur'),
      400,
      /Unknown name \\"negative_prompt\\"/,
    ],
    [
      'four reference images',
      'reference_images',
      (b) => b.input.push(b.input[1], b.input[2]),
      400,
      /Task reference_to_video takes 1 to 3 reference images, got 4/,
    ],
  ],
};

describe.each(Object.keys(FAKES))('%s adapter: creative options (issue 35)', (name) => {
  let fake: VideoProviderFake;
  let inputs: OptionInputs;
  let dir: string;

  beforeAll(async () => {
    fake = await FAKES[name]!();
    fake.pollsUntilDone = 1;
    dir = await mkdtemp(path.join(tmpdir(), `options-${name}-`));
    inputs = {
      first: await pngImage(640, 360, { r: 200, g: 40, b: 40 }),
      last: await pngImage(640, 360, { r: 40, g: 200, b: 40 }),
      refs: [await pngImage(320, 320, { r: 40, g: 40, b: 200 }), await pngImage(300, 400)],
      source: await shapedVideo(DEFAULT_SHAPE),
    };
  }, 30_000);
  afterAll(async () => {
    await fake?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const png = (data: Buffer) => ({ data, mimeType: 'image/png' });

  function optionJob(c: OptionCase): VideoJobInput {
    const { mode, options: chosen } = OPTION_CASES[c];
    const options: VideoOptions = { ...DEFAULT_OPTIONS, ...chosen };
    return {
      prompt: PROMPT,
      mode,
      model: fake.models[mode],
      options,
      ...(mode === 'image' ? { image: png(inputs.first) } : {}),
      ...(options.lastFrame ? { lastFrame: png(inputs.last) } : {}),
      ...(options.referenceImages > 0 ? { referenceImages: inputs.refs.map(png) } : {}),
      ...(options.extend
        ? { sourceVideo: { data: inputs.source, mimeType: 'video/mp4', durationSeconds: 8 } }
        : {}),
      taskId: `task-${c}`,
      deadlineAt: new Date(Date.now() + 600_000),
    };
  }

  /** The bodies of the submits (create calls) the fake received, in order. */
  const submits = () =>
    (fake.requests as Array<{ method: string; path: string; body?: unknown }>).filter(
      (r) =>
        r.method === 'POST' &&
        r.body !== undefined &&
        !r.path.includes(':fetchPredictOperation') &&
        !r.path.endsWith('/cancel'),
    );

  const capsOf = (c: OptionCase) => {
    const job = optionJob(c);
    return unsupportedOption(
      providerByName(name)!.modelCapabilities(job.model),
      job.mode,
      job.options,
    );
  };

  const all = (Object.keys(OPTION_CASES) as OptionCase[]).map((c) => [c] as const);

  it.each(all)('%s: sent in the provider’s own fields, or refused by capabilities', async (c) => {
    const expected = EXPECTED[name]!(inputs, fake)[c];
    const before = submits().length;
    if ('refused' in expected) {
      expect(capsOf(c)).toBe(expected.refused);
      // Never sent (and so never billed), even if the worker's routing were bypassed.
      await expect(fake.createAdapter().submit(optionJob(c))).rejects.toMatchObject({
        kind: 'rejected',
      });
      expect(submits()).toHaveLength(before);
      return;
    }
    expect(capsOf(c)).toBeNull();
    const adapter = fake.createAdapter();
    const jobId = await adapter.submit(optionJob(c));
    const sent = submits().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.path).toBe(expected.path);
    expect(sent[0]!.body).toEqual(expected.body);

    expect(await adapter.poll(jobId)).toMatchObject({ state: 'succeeded' });
    const file = path.join(dir, `${c.replace(/\W/g, '-')}.mp4`);
    await adapter.download(jobId, file);
    // The video has the shape and length asked for (an extension: the source + 7 s, one clip).
    const { options } = optionJob(c);
    const video = await readFile(file);
    const seconds = options.extend ? 8 + EXTEND_SECONDS : 8;
    expect(mp4Size(video)).toEqual(
      fakeVideoSize({ aspectRatio: options.aspectRatio, resolution: options.resolution, seconds }),
    );
    expect(Math.round(mp4Seconds(video) ?? 0)).toBe(seconds);
  });

  const without = (j: VideoJobInput, key: keyof VideoJobInput): VideoJobInput => {
    const copy = { ...j };
    delete copy[key];
    return copy;
  };
  it.each([
    ['last_frame chosen but no last frame', () => without(optionJob('last_frame'), 'lastFrame')],
    [
      'a last frame in text mode',
      () => ({
        ...optionJob('spec clip'),
        options: { ...DEFAULT_OPTIONS, lastFrame: true },
        lastFrame: { data: inputs.last, mimeType: 'image/png' },
      }),
    ],
    [
      'two reference images chosen, one sent',
      () => ({ ...optionJob('reference_images'), referenceImages: [png(inputs.refs[0]!)] }),
    ],
    ['extend chosen but no source video', () => without(optionJob('extend'), 'sourceVideo')],
    [
      // fal extends up to 8 s of source, Vertex AI up to 30 s (the others do not extend).
      'a 31 s source to extend',
      () => ({
        ...optionJob('extend'),
        sourceVideo: { data: inputs.source, mimeType: 'video/mp4' as const, durationSeconds: 31 },
      }),
    ],
  ])('refuses %s before sending anything', async (_what, build) => {
    const before = submits().length;
    await expect(fake.createAdapter().submit(build())).rejects.toMatchObject({ kind: 'rejected' });
    expect(submits()).toHaveLength(before);
  });

  it.runIf(name === 'vertex')(
    'extends an extended (15 s) source into one 22 s clip (fal takes 8 s at most)',
    async () => {
      const source = await shapedVideo({ ...DEFAULT_SHAPE, seconds: 15 });
      const job = {
        ...optionJob('extend'),
        sourceVideo: { data: source, mimeType: 'video/mp4' as const, durationSeconds: 15 },
      };
      const adapter = fake.createAdapter();
      const jobId = await adapter.submit(job);
      expect(await adapter.poll(jobId)).toMatchObject({ state: 'succeeded' });
      const file = path.join(dir, 'extend-15.mp4');
      await adapter.download(jobId, file);
      expect(Math.round(mp4Seconds(await readFile(file)) ?? 0)).toBe(15 + EXTEND_SECONDS);
    },
  );

  it.each(MUTATIONS[name]!)(
    'the fake refuses %s in the provider’s own format',
    async (_what, c, mutate, status, format) => {
      const refusals: Array<{ status: number; text: string }> = [];
      const fetchImpl: typeof fetch = async (url, init) => {
        let sent = init;
        const target = String(url);
        const submit =
          init?.method === 'POST' &&
          typeof init.body === 'string' &&
          !target.includes(':fetchPredictOperation') &&
          !target.endsWith('/cancel');
        if (submit) {
          const body = JSON.parse(init.body as string) as Body;
          mutate(body);
          sent = { ...init, body: JSON.stringify(body) };
        }
        const res = await fetch(url, sent);
        if (!res.ok) refusals.push({ status: res.status, text: await res.clone().text() });
        return res;
      };
      const adapter = fake.createAdapter({ fetchImpl, retry: { attempts: 1 } });
      // fal takes any input and reports the 422 as the job's result; the others refuse the submit.
      const outcome = await adapter
        .submit(optionJob(c))
        .then((jobId) => adapter.poll(jobId))
        .catch((err: unknown) => err);
      expect(outcome).toMatchObject(
        name === 'fal' ? { state: 'failed', kind: 'provider' } : { kind: 'rejected', status },
      );
      expect(refusals.map((r) => r.status)).toEqual([status]);
      expect(refusals[0]!.text).toMatch(format);
      expect(JSON.parse(refusals[0]!.text)).toMatchObject(FORMATS[name]!);
    },
  );
});

describe('model capabilities: the narrower limits of each provider (issue 35)', () => {
  const o = (more: Partial<VideoOptions>): VideoOptions => ({ ...DEFAULT_OPTIONS, ...more });
  const refs = (n: number, more: Partial<VideoOptions> = {}) => o({ referenceImages: n, ...more });
  const VEO_PIN = `google/veo-3.1:${'a'.repeat(64)}`;
  // [provider, route model, the field refused (null: possible), mode, options]
  it.each([
    ['fal', 'fal-ai/veo3.1', 'seed', 'text', refs(2, { seed: 7 })],
    ['fal', 'fal-ai/veo3.1', 'negative_prompt', 'text', refs(1, { negativePrompt: 'blur' })],
    ['fal', 'fal-ai/veo3.1', 'reference_images', 'text', refs(1, { tier: 'fast' })],
    ['fal', 'fal-ai/veo3.1/fast', 'reference_images', 'text', refs(1)],
    ['fal', 'fal-ai/veo3.1', 'reference_images', 'text', refs(4)],
    ['fal', 'fal-ai/veo3.1/lite', 'seed', 'text', o({ seed: 1 })],
    ['fal', 'fal-ai/veo3.1', null, 'text', o({ extend: true, resolution: '1080p' })],
    ['fal', 'fal-ai/veo3.1/image-to-video', null, 'image', o({ lastFrame: true, tier: 'fast' })],
    ['replicate', 'google/veo-3.1', 'reference_images', 'text', refs(1, { aspectRatio: '9:16' })],
    ['replicate', 'google/veo-3.1-fast', 'reference_images', 'text', refs(1)],
    ['replicate', VEO_PIN, 'tier', 'text', o({ tier: 'fast' })],
    ['replicate', 'google/veo-3.1', 'extend_task_id', 'text', o({ extend: true })],
    ['replicate', 'someone/else', 'aspect_ratio', 'text', o({ aspectRatio: '9:16' })],
    ['vertex', 'veo-3.1-fast-generate-001', 'reference_images', 'text', refs(1)],
    [
      'vertex',
      'veo-3.1-generate-001',
      'reference_images',
      'text',
      refs(1, { aspectRatio: '9:16' }),
    ],
    [
      'vertex',
      'veo-3.1-generate-001',
      'resolution',
      'text',
      o({ extend: true, resolution: '1080p' }),
    ],
    ['vertex', 'veo-3.1-lite-generate-001', 'resolution', 'text', o({ resolution: '1080p' })],
    ['gemini', 'gemini-omni-1.2-flash', 'last_frame', 'image', o({ lastFrame: true })],
    ['gemini', 'gemini-omni-1.2-flash', null, 'text', refs(3, { aspectRatio: '9:16', seed: 5 })],
    ['gemini', 'gemini-omni-1.1-flash', 'aspect_ratio', 'text', o({ aspectRatio: '9:16' })],
  ] as const)('%s %s: refuses %s', (provider, model, field, mode, options) => {
    const caps = providerByName(provider)!.modelCapabilities(model);
    expect(unsupportedOption(caps, mode, options)).toBe(field);
  });

  it('keeps the spec’s clip possible on every route model of every fake', () => {
    for (const provider of Object.keys(FAKES)) {
      for (const mode of ['text', 'image'] as const) {
        for (const model of ['x/y', 'fal-ai/veo3.1', 'google/veo-3.1', 'veo-3.1-generate-001']) {
          const caps = providerByName(provider)!.modelCapabilities(model);
          expect(unsupportedOption(caps, mode, DEFAULT_OPTIONS), `${provider} ${model}`).toBeNull();
        }
      }
    }
  });
});
