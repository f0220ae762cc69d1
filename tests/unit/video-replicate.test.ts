/**
 * The Replicate adapter (server/domains/video/providers/replicate/adapter.ts) against its fake
 * (tests/fakes/replicate/: real HTTP, Replicate's wire format, a second origin for outputs).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VideoProviderError } from '../../server/domains/video/providers/errors.ts';
import type { RetryPolicy } from '../../server/domains/video/providers/http.ts';
import { createReplicateProvider } from '../../server/domains/video/providers/replicate/adapter.ts';
import { parseReplicateError } from '../../server/domains/video/providers/replicate/wire.ts';
import type { VideoJobInput, WebhookNotice } from '../../server/domains/video/providers/types.ts';
import { startReplicateFake, type ReplicateFake } from '../fakes/replicate/index.ts';
import { closeServer, listen } from '../fakes/http.ts';
import { guardedFetch } from '../../server/core/outbound.ts';
import { DEFAULT_OPTIONS } from '../../shared/video-options.ts';

// A 1x1 PNG, sent as the first frame.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const FAST: RetryPolicy = { attempts: 3, baseDelayMs: 1, maxDelayMs: 50 };

let fake: ReplicateFake;
let dir: string;

const textJob = (overrides: Partial<VideoJobInput> = {}): VideoJobInput => ({
  prompt: 'A lighthouse at dusk, waves',
  mode: 'text',
  model: fake.models.text,
  options: DEFAULT_OPTIONS,
  taskId: 'task-1',
  deadlineAt: new Date(Date.now() + 10 * 60_000),
  ...overrides,
});
const imageJob = (overrides: Partial<VideoJobInput> = {}): VideoJobInput =>
  textJob({
    prompt: 'The cat turns its head',
    mode: 'image',
    model: fake.models.image,
    image: { data: PNG, mimeType: 'image/png' },
    ...overrides,
  });

const adapter = (retry: RetryPolicy = FAST) => fake.createAdapter({ retry });

async function failure(promise: Promise<unknown>): Promise<VideoProviderError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(VideoProviderError);
  return err as VideoProviderError;
}

/** `METHOD path status` per request, prediction ids and output paths masked. */
const calls = () =>
  fake.requests.map((r) => {
    const path = r.path
      .replace(/\/predictions\/[a-z0-9]{26}/, '/predictions/:id')
      .replace(/\/xezq\/.*$/, '/xezq/…');
    return `${r.server === 'delivery' ? 'delivery ' : ''}${r.method} ${path} ${r.status}`;
  });

beforeEach(async () => {
  fake = await startReplicateFake();
  dir = await mkdtemp(join(tmpdir(), 'replicate-test-'));
});

afterEach(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

describe('Replicate adapter: successful jobs', () => {
  it('text: creates on the model endpoint, polls to succeeded, downloads the exact bytes', async () => {
    const provider = adapter();
    const jobId = await provider.submit(textJob());
    expect(jobId).toBe(fake.jobs[0]?.requestId);
    expect(provider.requestIdOf(jobId)).toBe(jobId);
    await expect(provider.poll(jobId)).resolves.toEqual({ state: 'succeeded' });

    // A fresh adapter, as after a worker restart: the job id is the whole state.
    const dest = join(dir, 'videos', 'out.mp4');
    await adapter().download(jobId, dest);
    expect((await readFile(dest)).equals(await fake.video())).toBe(true);
    expect(await readdir(join(dir, 'videos'))).toEqual(['out.mp4']);

    const [create] = fake.requests;
    expect(create).toMatchObject({
      method: 'POST',
      path: '/v1/models/google/veo-3.1/predictions',
      authorization: `Bearer ${fake.token}`,
      body: {
        input: {
          prompt: 'A lighthouse at dusk, waves',
          duration: 8,
          aspect_ratio: '16:9',
          resolution: '720p',
          generate_audio: true,
        },
      },
    });
    expect(create?.body).not.toHaveProperty('webhook');
    // Ten minutes to the deadline, in whole seconds.
    expect(Number(/^(\d+)s$/.exec(create?.cancelAfter ?? '')?.[1])).toBeGreaterThan(590);
    expect(Number(/^(\d+)s$/.exec(create?.cancelAfter ?? '')?.[1])).toBeLessThanOrEqual(600);
    expect(calls()).toEqual([
      'POST /v1/models/google/veo-3.1/predictions 201',
      'GET /v1/predictions/:id 200',
      'GET /v1/predictions/:id 200',
      'delivery GET /xezq/… 200',
    ]);
  });

  it('image: sends the first frame as a data URI to the fast model, with the webhook', async () => {
    const provider = adapter();
    const jobId = await provider.submit(
      imageJob({ webhookUrl: 'https://app.example/api/webhooks/replicate' }),
    );
    expect(fake.jobs[0]).toMatchObject({
      model: 'google/veo-3.1-fast',
      image: { form: 'data-uri', mimeType: 'image/png', bytes: PNG.length },
      webhookUrl: 'https://app.example/api/webhooks/replicate',
    });
    expect(fake.requests[0]?.path).toBe('/v1/models/google/veo-3.1-fast/predictions');
    expect(fake.requests[0]?.body).toMatchObject({
      input: { image: `data:image/png;base64,${PNG.toString('base64')}` },
      webhook: 'https://app.example/api/webhooks/replicate',
      webhook_events_filter: ['completed'],
    });
    await expect(provider.poll(jobId)).resolves.toEqual({ state: 'succeeded' });
    const dest = join(dir, 'image.mp4');
    await provider.download(jobId, dest);
    expect((await readFile(dest)).equals(await fake.video())).toBe(true);
  });

  it('reports starting as queued and processing as running', async () => {
    fake.pollsUntilDone = 3;
    const provider = adapter();
    const jobId = await provider.submit(textJob());
    await expect(provider.poll(jobId)).resolves.toEqual({ state: 'queued' });
    await expect(provider.poll(jobId)).resolves.toEqual({ state: 'running' });
    await expect(provider.poll(jobId)).resolves.toEqual({ state: 'succeeded' });
  });

  it('runs a pinned owner/name:version through /predictions with `version`', async () => {
    const version = fake.versions['google/veo-3.1'];
    const provider = adapter();
    const jobId = await provider.submit(textJob({ model: `google/veo-3.1:${version}` }));
    expect(fake.requests[0]).toMatchObject({
      path: '/v1/predictions',
      body: { version: `google/veo-3.1:${version}` },
    });
    expect(fake.jobs[0]?.model).toBe('google/veo-3.1');
    await expect(provider.poll(jobId)).resolves.toEqual({ state: 'succeeded' });
  });
});

describe('Replicate adapter: generations that fail', () => {
  it('a safety refusal (E005) is content_policy with Replicate’s text; no download', async () => {
    const provider = adapter();
    const jobId = await provider.submit(textJob({ prompt: '[policy] something' }));
    await expect(provider.poll(jobId)).resolves.toEqual({
      state: 'failed',
      kind: 'content_policy',
      detail: fake.policyError,
    });
    expect((await failure(provider.download(jobId, join(dir, 'x.mp4')))).kind).toBe('gone');
    expect(fake.requests.filter((r) => r.server === 'delivery')).toEqual([]);
  });

  it('a model error is a provider failure with its text', async () => {
    const provider = adapter();
    const jobId = await provider.submit(textJob({ prompt: '[fail] something' }));
    await expect(provider.poll(jobId)).resolves.toEqual({
      state: 'failed',
      kind: 'provider',
      detail: fake.failError,
    });
  });

  it('honours the deadline: aborted before it started, canceled while running', async () => {
    const provider = adapter();
    const deadlineAt = new Date(Date.now() + 60_000);
    const early = await provider.submit(textJob({ prompt: '[hang] a', deadlineAt }));
    const late = await provider.submit(textJob({ prompt: '[hang] b', deadlineAt }));
    expect(fake.requests[0]?.cancelAfter).toMatch(/^(59|60)s$/);
    await expect(provider.poll(late)).resolves.toEqual({ state: 'running' });

    fake.advance(61_000);
    const aborted = await provider.poll(early);
    const canceled = await provider.poll(late);
    expect(aborted).toMatchObject({ state: 'failed', kind: 'provider' });
    expect(aborted.state === 'failed' && aborted.detail).toMatch(/aborted/);
    expect(canceled).toMatchObject({ state: 'failed', kind: 'provider' });
    expect(canceled.state === 'failed' && canceled.detail).toMatch(/canceled/);
  });
});

describe('Replicate adapter: HTTP errors', () => {
  it('429 with Retry-After above the wait cap: rate_limited at once, no prediction', async () => {
    fake.failSubmits(1, { status: 429, retryAfterSeconds: 45 });
    const err = await failure(adapter().submit(textJob()));
    expect(err).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 45_000 });
    expect(err.detail).toMatch(/Request was throttled/);
    expect(calls()).toEqual(['POST /v1/models/google/veo-3.1/predictions 429']);
    expect(fake.jobs).toEqual([]);
  });

  it('429 without Retry-After: the wait comes from the body ("resets in ~30s")', async () => {
    fake.failSubmits(1, { status: 429 });
    const err = await failure(adapter().submit(textJob()));
    expect(err).toMatchObject({ kind: 'rate_limited', retryAfterMs: 30_000 });
  });

  it('a short 429 is waited out and retried: one prediction', async () => {
    fake.failSubmits(1, { status: 429, retryAfterSeconds: 0 });
    await adapter().submit(textJob());
    expect(calls()).toEqual([
      'POST /v1/models/google/veo-3.1/predictions 429',
      'POST /v1/models/google/veo-3.1/predictions 201',
    ]);
    expect(fake.jobs).toHaveLength(1);
  });

  it('5xx on submit is retried, then unavailable with no prediction created', async () => {
    fake.failSubmits(3, { status: 503 });
    const err = await failure(adapter().submit(textJob()));
    expect(err).toMatchObject({ kind: 'unavailable', status: 503 });
    expect(calls()).toEqual(Array(3).fill('POST /v1/models/google/veo-3.1/predictions 503'));
    expect(fake.jobs).toEqual([]);
  });

  it('a submit whose answer is lost after sending is in_doubt and never resent', async () => {
    fake.submitDelayMs = 2_000;
    const err = await failure(adapter({ ...FAST, timeoutMs: 200 }).submit(textJob()));
    expect(err.kind).toBe('in_doubt');
    expect(fake.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    // The prediction exists at Replicate: resending would have made (and billed) a second one.
    expect(fake.jobs).toHaveLength(1);
  });

  it('an unknown model is rejected (404 on create), a malformed one before any request', async () => {
    const err = await failure(adapter().submit(textJob({ model: 'google/veo-9' })));
    expect(err).toMatchObject({ kind: 'rejected', status: 404 });
    expect(fake.jobs).toEqual([]);
    expect((await failure(adapter().submit(textJob({ model: 'veo' })))).kind).toBe('rejected');
    expect(fake.requests).toHaveLength(1);
  });

  it('a wrong token is rejected (401)', async () => {
    const provider = createReplicateProvider({
      token: 'r8_wrong',
      apiUrl: fake.url,
      outbound: fake.outbound,
      retry: FAST,
    });
    expect(await failure(provider.submit(textJob()))).toMatchObject({
      kind: 'rejected',
      status: 401,
    });
  });

  it('a 422 from the input check is rejected with the invalid field named', async () => {
    // Corrupt the body on its way out, as a schema change at Replicate would make it invalid.
    const fetchImpl: typeof fetch = (url, init) => {
      const body =
        typeof init?.body === 'string'
          ? init.body.replace('"duration":8', '"duration":5')
          : init?.body;
      return fetch(url, { ...init, body });
    };
    const err = await failure(fake.createAdapter({ retry: FAST, fetchImpl }).submit(textJob()));
    expect(err).toMatchObject({ kind: 'rejected', status: 422 });
    expect(err.detail).toContain('input.duration must be one of the following: 4, 6, 8');
    expect(fake.jobs).toEqual([]);
  });

  it('reads Replicate error bodies: safety words on a refused input are content_policy', () => {
    const refused = JSON.stringify({
      title: 'Input validation failed',
      detail: 'The input or output was flagged as sensitive. (E005)',
      status: 422,
    });
    expect(parseReplicateError(422, refused)).toMatchObject({ kind: 'content_policy' });
    const invalid = JSON.stringify({ detail: '- input.seed: Invalid type', status: 422 });
    expect(parseReplicateError(422, invalid)).toEqual({ message: '- input.seed: Invalid type' });
    expect(parseReplicateError(502, '<html>Bad gateway</html>').message).toBe(
      '<html>Bad gateway</html>',
    );
  });

  it('a prediction Replicate no longer knows is gone; malformed job ids are refused unsent', async () => {
    expect(await failure(adapter().poll('abcdefghijklmnopqrstuvwxyz'))).toMatchObject({
      kind: 'gone',
      status: 404,
    });
    expect((await failure(adapter().poll('../webhooks/default/secret'))).kind).toBe('rejected');
    expect(fake.requests).toHaveLength(1);
  });
});

describe('Replicate adapter: cancel and downloads', () => {
  it('cancel reaches the fake and the job then reads as failed', async () => {
    const provider = adapter();
    const jobId = await provider.submit(textJob({ prompt: '[hang] forever' }));
    await expect(provider.poll(jobId)).resolves.toEqual({ state: 'running' });
    // Not finished: download refuses, retryably, without touching the output host.
    expect((await failure(provider.download(jobId, join(dir, 'x.mp4')))).kind).toBe('unavailable');
    await provider.cancel(jobId);
    expect(fake.jobs[0]?.canceled).toBe(true);
    expect(calls()).toContain('POST /v1/predictions/:id/cancel 200');
    expect(await provider.poll(jobId)).toMatchObject({ state: 'failed', kind: 'provider' });
    // Cancelling again, or a prediction Replicate has forgotten, resolves quietly.
    await provider.cancel(jobId);
    await provider.cancel('abcdefghijklmnopqrstuvwxyz');
  });

  it('never sends the token to the output host', async () => {
    const provider = adapter();
    const jobId = await provider.submit(textJob());
    await provider.poll(jobId);
    await provider.download(jobId, join(dir, 'out.mp4'));
    const delivery = fake.requests.filter((r) => r.server === 'delivery');
    expect(delivery).toHaveLength(1);
    expect(delivery[0]?.authorization).toBeNull();
    for (const r of fake.requests.filter((r) => r.server === 'api')) {
      expect(r.authorization).toBe(`Bearer ${fake.token}`);
    }
  });

  it('an expired output file (404 on the output host) is gone and leaves nothing behind', async () => {
    const provider = adapter();
    const jobId = await provider.submit(textJob());
    await provider.poll(jobId);
    fake.expireFiles();
    expect(await failure(provider.download(jobId, join(dir, 'out.mp4')))).toMatchObject({
      kind: 'gone',
      status: 404,
    });
    expect(await readdir(dir)).toEqual([]);
  });

  it('after an hour the output is removed from the prediction: gone without a file request', async () => {
    const provider = adapter();
    const jobId = await provider.submit(textJob());
    await provider.poll(jobId);
    fake.advance(61 * 60_000);
    expect((await failure(provider.download(jobId, join(dir, 'out.mp4')))).kind).toBe('gone');
    expect(fake.requests.filter((r) => r.server === 'delivery')).toEqual([]);
  });
});

describe('Replicate adapter: webhooks', () => {
  let receiver: Server | undefined;
  afterEach(async () => {
    if (receiver) await closeServer(receiver);
    receiver = undefined;
  });

  const secretFetches = () =>
    fake.requests.filter((r) => r.path === '/v1/webhooks/default/secret').length;

  it('verifies a good delivery and fetches the secret once', async () => {
    const provider = adapter();
    const jobId = await provider.submit(textJob({ webhookUrl: 'https://app.example/hook' }));
    const req = await fake.signedWebhook(jobId);
    await expect(provider.verifyWebhook?.(req)).resolves.toEqual({
      providerRequestId: jobId,
      deliveryId: req.headers['webhook-id'],
    });
    await provider.verifyWebhook?.(await fake.signedWebhook(jobId));
    expect(secretFetches()).toBe(1);
    // The completion webhook is sent when the prediction ends.
    await expect(provider.poll(jobId)).resolves.toEqual({ state: 'succeeded' });
  });

  it('refuses a tampered body and a stale timestamp', async () => {
    const provider = adapter();
    const jobId = await provider.submit(textJob());
    const tampered = await failure(
      provider.verifyWebhook!(await fake.signedWebhook(jobId, { tamper: true })),
    );
    expect(tampered.kind).toBe('rejected');
    const stale = await failure(
      provider.verifyWebhook!(await fake.signedWebhook(jobId, { stale: true })),
    );
    expect(stale.kind).toBe('rejected');
    expect(stale.message).toMatch(/5 minutes/);
  });

  it('uses a configured secret without asking, and refuses a wrong one', async () => {
    const jobId = await adapter().submit(textJob());
    const req = await fake.signedWebhook(jobId);
    const configured = createReplicateProvider({
      token: fake.token,
      apiUrl: fake.url,
      outbound: fake.outbound,
      webhookSecret: fake.webhookSecret,
    });
    await expect(configured.verifyWebhook?.(req)).resolves.toMatchObject({
      providerRequestId: jobId,
    });
    const wrong = createReplicateProvider({
      token: fake.token,
      apiUrl: fake.url,
      outbound: fake.outbound,
      webhookSecret: `whsec_${Buffer.from('another secret').toString('base64')}`,
    });
    expect((await failure(wrong.verifyWebhook!(req))).kind).toBe('rejected');
    expect(secretFetches()).toBe(0);
  });

  it('remembers a failed secret fetch for a minute (no call meanwhile), then asks again', async () => {
    let refuse = true;
    let secretCalls = 0;
    const fetchImpl: typeof fetch = (url, init) => {
      if (String(url).endsWith('/webhooks/default/secret')) {
        secretCalls += 1;
        if (refuse) {
          refuse = false;
          return Promise.resolve(
            new Response('{"detail":"Internal server error"}', { status: 500 }),
          );
        }
      }
      return guardedFetch(fake.outbound)(url, init);
    };
    let clock = Date.now();
    const provider = createReplicateProvider({
      token: fake.token,
      apiUrl: fake.url,
      outbound: fake.outbound,
      retry: FAST,
      fetchImpl,
      now: () => clock,
    });
    const jobId = await provider.submit(textJob());
    const req = await fake.signedWebhook(jobId);
    expect((await failure(provider.verifyWebhook!(req))).kind).toBe('unavailable');
    expect(secretCalls).toBe(1); // one attempt: a delivery waits for it
    clock += 30_000;
    const meanwhile = await failure(provider.verifyWebhook!(req));
    expect(meanwhile).toMatchObject({ kind: 'unavailable', retryAfterMs: 30_000 });
    expect(secretCalls).toBe(1);
    clock += 31_000;
    await expect(provider.verifyWebhook!(req)).resolves.toMatchObject({ providerRequestId: jobId });
    expect(secretCalls).toBe(2);
  });

  it('deliverWebhook posts the signed prediction to the job’s webhook URL', async () => {
    const provider = adapter();
    const notices: WebhookNotice[] = [];
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        provider.verifyWebhook!({ headers: req.headers, rawBody: Buffer.concat(chunks) }).then(
          (notice) => {
            notices.push(notice);
            res.writeHead(204).end();
          },
          () => res.writeHead(401).end(),
        );
      });
    });
    const { url } = await listen(receiver);
    const jobId = await provider.submit(textJob({ webhookUrl: `${url}/hook` }));
    expect(await fake.deliverWebhook(jobId)).toBe(204);
    expect(await fake.deliverWebhook(jobId, { tamper: true })).toBe(401);
    expect(notices).toEqual([
      { providerRequestId: jobId, deliveryId: expect.stringMatching(/^msg_/) },
    ]);
  });
});

describe('Replicate fake: strict input check', () => {
  it.each<{ name: string; input: Record<string, unknown>; type: string; description: RegExp }>([
    {
      name: 'a duration outside 4|6|8',
      input: { prompt: 'x', duration: 5 },
      type: 'enum',
      description: /must be one of the following: 4, 6, 8/,
    },
    {
      name: 'a duration as a string',
      input: { prompt: 'x', duration: '8' },
      type: 'invalid_type',
      description: /Expected: integer, given: string/,
    },
    {
      name: 'an unknown field',
      input: { prompt: 'x', fps: 24 },
      type: 'additional_property_not_allowed',
      description: /Additional property fps/,
    },
    {
      name: 'no prompt',
      input: { duration: 8 },
      type: 'required',
      description: /prompt is required/,
    },
    {
      name: 'an image that is not a URI',
      input: { prompt: 'x', image: 'cat.png' },
      type: 'format',
      description: /format 'uri'/,
    },
  ])('answers 422 in Replicate’s form to $name', async ({ input, type, description }) => {
    const res = await fetch(`${fake.url}/models/google/veo-3.1/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input }),
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as {
      title: string;
      invalid_fields: { type: string; description: string }[];
    };
    expect(body.title).toBe('Input validation failed');
    expect(body.invalid_fields[0]?.type).toBe(type);
    expect(body.invalid_fields[0]?.description).toMatch(description);
    expect(fake.jobs).toEqual([]);
  });
});
