/**
 * The fal.ai adapter (server/domains/video/providers/fal/adapter.ts) against tests/fakes/fal/: real HTTP,
 * fal's queue wire format, its error bodies, its CDN on another origin and its signed webhooks.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VideoProviderError } from '../../server/domains/video/providers/errors.ts';
import { createFalProvider } from '../../server/domains/video/providers/fal/adapter.ts';
import type { RetryPolicy } from '../../server/domains/video/providers/http.ts';
import type { VideoJobInput, VideoProvider } from '../../server/domains/video/providers/types.ts';
import { startFalFake, type FalFake } from '../fakes/fal/index.ts';
import { closeServer, listen, readBody } from '../fakes/http.ts';
import { DEFAULT_OPTIONS } from '../../shared/video-options.ts';

// A 1x1 PNG, sent as the first frame.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
// Fast backoff so retry tests take milliseconds.
const FAST: RetryPolicy = { attempts: 3, baseDelayMs: 1, maxDelayMs: 50 };

let fake: FalFake;
let dir: string;
let clock: number;

const textJob = (overrides: Partial<VideoJobInput> = {}): VideoJobInput => ({
  prompt: 'A lighthouse at dusk, waves against the rocks',
  mode: 'text',
  model: fake.models.text,
  options: DEFAULT_OPTIONS,
  taskId: 'task-1',
  deadlineAt: new Date(Date.now() + 600_000),
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

const adapter = (opts: { retry?: RetryPolicy; fetchImpl?: typeof fetch } = {}): VideoProvider =>
  fake.createAdapter({ retry: FAST, ...opts });

async function failure(promise: Promise<unknown>): Promise<VideoProviderError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(VideoProviderError);
  return err as VideoProviderError;
}

const queueCalls = (match: string) =>
  fake.requests.filter((r) => r.server === 'queue' && r.path.includes(match));
const submits = () => fake.requests.filter((r) => r.server === 'queue' && r.method === 'POST');

beforeEach(async () => {
  clock = Date.now();
  fake = await startFalFake({ now: () => clock });
  dir = await mkdtemp(join(tmpdir(), 'fal-test-'));
});

afterEach(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

describe('fal adapter: successful jobs', () => {
  it('submits a text job with the key, polls to done, and downloads the exact bytes', async () => {
    const jobId = await adapter().submit(textJob());
    const [job] = fake.jobs;
    expect(adapter().requestIdOf(jobId)).toBe(job?.requestId);
    expect(submits()).toHaveLength(1);
    expect(submits()[0]).toMatchObject({
      path: '/fal-ai/veo3.1',
      status: 200,
      authorization: `Key ${fake.key}`,
      body: {
        prompt: textJob().prompt,
        duration: '8s',
        aspect_ratio: '16:9',
        resolution: '720p',
        generate_audio: true,
      },
    });
    expect(Object.keys(submits()[0]?.body as object)).not.toContain('image_url');

    await expect(adapter().poll(jobId)).resolves.toEqual({ state: 'succeeded' });
    // A fresh adapter, as after a worker restart: everything comes from the job id.
    const dest = join(dir, 'videos', 'out.mp4');
    await adapter().download(jobId, dest);
    expect((await readFile(dest)).equals(await fake.video())).toBe(true);
    expect(await readdir(join(dir, 'videos'))).toEqual(['out.mp4']);
  });

  it('sends the first frame as a PNG data URI to the image-to-video endpoint', async () => {
    const provider = adapter();
    const jobId = await provider.submit(imageJob());
    expect(fake.jobs[0]?.image).toEqual({
      form: 'data-uri',
      mimeType: 'image/png',
      bytes: PNG.length,
    });
    expect(submits()[0]).toMatchObject({
      path: '/fal-ai/veo3.1/image-to-video',
      body: { image_url: `data:image/png;base64,${PNG.toString('base64')}`, duration: '8s' },
    });
    await expect(provider.poll(jobId)).resolves.toEqual({ state: 'succeeded' });
    const dest = join(dir, 'image.mp4');
    await provider.download(jobId, dest);
    expect((await readFile(dest)).equals(await fake.video())).toBe(true);
  });

  it('follows the returned URLs, which drop the endpoint sub-path', async () => {
    const provider = adapter();
    const jobId = await provider.submit(imageJob({ model: 'fal-ai/veo3.1/lite/image-to-video' }));
    const id = provider.requestIdOf(jobId);
    await provider.poll(jobId);
    await provider.download(jobId, join(dir, 'lite.mp4'));
    await provider.cancel(jobId);
    const paths = fake.requests.filter((r) => r.server === 'queue').map((r) => r.path);
    expect(paths).toEqual([
      '/fal-ai/veo3.1/lite/image-to-video',
      `/fal-ai/veo3.1/requests/${id}/status?logs=0`,
      `/fal-ai/veo3.1/requests/${id}`,
      `/fal-ai/veo3.1/requests/${id}`,
      `/fal-ai/veo3.1/requests/${id}/cancel`,
    ]);
  });

  it('builds the URLs on the queue origin itself when the answer lacks them or names another host', async () => {
    // The submit answer as a misbehaving proxy might pass it: status URL elsewhere, no result URL.
    const fetchImpl: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (init?.method !== 'POST') return res;
      const answer = (await res.json()) as Record<string, unknown>;
      const body = { ...answer, status_url: `${fake.cdnUrl}/steal`, response_url: undefined };
      return new Response(JSON.stringify(body), { status: res.status, headers: res.headers });
    };
    const provider = adapter({ fetchImpl });
    const jobId = await provider.submit(imageJob());
    await expect(provider.poll(jobId)).resolves.toEqual({ state: 'succeeded' });
    const id = provider.requestIdOf(jobId);
    expect(queueCalls(`/fal-ai/veo3.1/requests/${id}/status`)).toHaveLength(1);
    expect(fake.requests.filter((r) => r.server === 'cdn')).toEqual([]);
  });

  it('reports the queue position, then running, then success', async () => {
    fake.pollsUntilDone = 5;
    const provider = adapter();
    const jobId = await provider.submit(textJob());
    const states = [];
    for (let i = 0; i < 5; i += 1) states.push(await provider.poll(jobId));
    expect(states).toEqual([
      { state: 'queued', position: 1 },
      { state: 'queued', position: 0 },
      { state: 'running' },
      { state: 'running' },
      { state: 'succeeded' },
    ]);
  });
});

describe('fal adapter: failed generations', () => {
  it('reports a content-policy refusal on the result as content_policy with fal’s text', async () => {
    const provider = adapter();
    const jobId = await provider.submit(textJob({ prompt: 'A street fight [policy]' }));
    const state = await provider.poll(jobId);
    expect(state).toMatchObject({ state: 'failed', kind: 'content_policy' });
    expect(state.state === 'failed' && state.detail).toContain(fake.policyMessage);
    const err = await failure(provider.download(jobId, join(dir, 'x.mp4')));
    expect(err.kind).toBe('content_policy');
  });

  it('reports a model failure as a provider failure and does not refetch it', async () => {
    const provider = adapter();
    const jobId = await provider.submit(textJob({ prompt: 'A calm sea [fail]' }));
    const state = await provider.poll(jobId);
    expect(state).toMatchObject({ state: 'failed', kind: 'provider' });
    expect(state.state === 'failed' && state.detail).toContain(fake.failureMessage);
    // fal's 500 with X-Fal-Retryable: true is the job's outcome, not a flaky fetch.
    expect(
      queueCalls(`/requests/${provider.requestIdOf(jobId)}`).filter((r) => r.status === 500),
    ).toHaveLength(1);
  });

  it('reports fal’s validation 422 (served on the result, as the live queue does) as a failure', async () => {
    // Corrupts the submitted body on the way, as an adapter bug would.
    const fetchImpl: typeof fetch = (input, init) =>
      init?.method === 'POST' && typeof init.body === 'string'
        ? fetch(input, { ...init, body: JSON.stringify({ ...JSON.parse(init.body), duration: 8 }) })
        : fetch(input, init);
    const provider = adapter({ fetchImpl });
    const jobId = await provider.submit(textJob());
    const state = await provider.poll(jobId);
    expect(state).toMatchObject({ state: 'failed', kind: 'provider' });
    expect(state.state === 'failed' && state.detail).toContain(
      "literal_error: Input should be '4s', '6s' or '8s' (body.duration)",
    );
  });
});

describe('fal adapter: submit errors', () => {
  it('hands a 429 with a long Retry-After to the worker as rate_limited, without waiting', async () => {
    fake.failSubmits(1, { status: 429, retryAfterSeconds: 30 });
    const err = await failure(adapter().submit(textJob()));
    expect(err).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 30_000 });
    expect(submits()).toHaveLength(1);
    expect(fake.jobs).toEqual([]);
  });

  it('retries a 429 whose Retry-After is short, then succeeds', async () => {
    fake.failSubmits(1, { status: 429, retryAfterSeconds: 0 });
    await adapter().submit(textJob());
    expect(submits().map((r) => r.status)).toEqual([429, 200]);
    expect(fake.jobs).toHaveLength(1);
  });

  it('retries a 5xx and gives up as unavailable, with no job created', async () => {
    fake.failSubmits(3, { status: 503 });
    const err = await failure(adapter().submit(textJob()));
    expect(err).toMatchObject({ kind: 'unavailable', status: 503 });
    expect(err.detail).toContain('runner_scheduling_failure');
    expect(submits().map((r) => r.status)).toEqual([503, 503, 503]);
    expect(fake.jobs).toEqual([]);
  });

  it('never resubmits after a timeout once the request was sent: in_doubt, one request', async () => {
    fake.stallSubmits(1);
    const provider = adapter({ retry: { ...FAST, timeoutMs: 300 } });
    const err = await failure(provider.submit(textJob()));
    expect(err.kind).toBe('in_doubt');
    expect(submits()).toHaveLength(1);
    expect(fake.jobs).toHaveLength(1);
  });

  it('refuses an endpoint fal does not serve (a retired model) as rejected, not gone', async () => {
    const err = await failure(adapter().submit(textJob({ model: 'fal-ai/veo3' })));
    expect(err).toMatchObject({ kind: 'rejected', status: 404 });
    expect(fake.jobs).toEqual([]);
  });

  it('refuses a model id that is not an endpoint id before sending anything', async () => {
    const err = await failure(adapter().submit(textJob({ model: 'fal-ai/../admin' })));
    expect(err.kind).toBe('rejected');
    expect(fake.requests).toEqual([]);
  });

  it('maps a wrong key to rejected', async () => {
    const provider = createFalProvider({
      key: 'wrong:key',
      queueUrl: fake.url,
      outbound: fake.outbound,
      retry: FAST,
    });
    const err = await failure(provider.submit(textJob()));
    expect(err).toMatchObject({ kind: 'rejected', status: 401 });
    expect(submits()).toHaveLength(1);
  });
});

describe('fal adapter: the key stays with the queue', () => {
  it('never sends the key to the CDN or the key host', async () => {
    const provider = adapter();
    const jobId = await provider.submit(textJob({ webhookUrl: 'https://example.test/hooks/fal' }));
    await provider.poll(jobId);
    await provider.download(jobId, join(dir, 'v.mp4'));
    await provider.verifyWebhook?.(await fake.signedWebhook(provider.requestIdOf(jobId)));
    const byServer = (server: string) => fake.requests.filter((r) => r.server === server);
    expect(byServer('cdn')).toHaveLength(1);
    expect(byServer('rest')).toHaveLength(1);
    for (const r of [...byServer('cdn'), ...byServer('rest')]) expect(r.authorization).toBeNull();
    for (const r of byServer('queue')) expect(r.authorization).toBe(`Key ${fake.key}`);
  });

  it('refuses a stored job id whose URLs name another host, without calling it', async () => {
    const jobId = await adapter().submit(textJob());
    const forged = JSON.stringify({ ...JSON.parse(jobId), statusUrl: `${fake.cdnUrl}/status` });
    const err = await failure(adapter().poll(forged));
    expect(err.kind).toBe('rejected');
    expect(fake.requests.filter((r) => r.server === 'cdn')).toEqual([]);
  });
});

describe('fal adapter: cancel', () => {
  it('cancels a queued job and a running one, and resolves for a finished one', async () => {
    fake.pollsUntilDone = 3;
    const provider = adapter();
    const queued = await provider.submit(textJob({ prompt: 'Forever [hang]' }));
    await provider.cancel(queued);
    const running = await provider.submit(textJob({ prompt: 'Forever too [hang]' }));
    await provider.poll(running);
    await provider.poll(running);
    await provider.cancel(running);
    const done = await provider.submit(textJob());
    for (let i = 0; i < 3; i += 1) await provider.poll(done);
    await provider.cancel(done);

    expect(fake.jobs.map((j) => j.canceled)).toEqual([true, true, false]);
    expect(queueCalls('/cancel').map((r) => [r.method, r.status])).toEqual([
      ['PUT', 200],
      ['PUT', 202],
      ['PUT', 400],
    ]);
    expect(queueCalls('/cancel')[0]?.path).toBe(
      `/fal-ai/veo3.1/requests/${provider.requestIdOf(queued)}/cancel`,
    );
  });
});

describe('fal adapter: webhooks', () => {
  async function submitted(prompt?: string) {
    const provider = adapter();
    const jobId = await provider.submit(
      textJob({
        webhookUrl: 'https://example.test/hooks/fal?task=1',
        ...(prompt ? { prompt } : {}),
      }),
    );
    return { provider, jobId, requestId: provider.requestIdOf(jobId) };
  }

  it('asks for the webhook and accepts fal’s signed delivery', async () => {
    const { provider, requestId } = await submitted();
    expect(fake.jobs[0]?.webhookUrl).toBe('https://example.test/hooks/fal?task=1');
    expect(submits()[0]?.path).toBe(
      `/fal-ai/veo3.1?fal_webhook=${encodeURIComponent('https://example.test/hooks/fal?task=1')}`,
    );
    const hook = await fake.signedWebhook(requestId);
    await expect(provider.verifyWebhook?.(hook)).resolves.toEqual({
      providerRequestId: requestId,
      // What the route takes once: the request and its signed timestamp.
      deliveryId: `${requestId}.${String(hook.headers['x-fal-webhook-timestamp'])}`,
    });
    // An ERROR delivery is signed the same way and is about the same job.
    const failed = await submitted('Again [policy]');
    await expect(
      failed.provider.verifyWebhook?.(await fake.signedWebhook(failed.requestId)),
    ).resolves.toMatchObject({ providerRequestId: failed.requestId });
  });

  it.each([
    ['a tampered body', { tamper: true }],
    ['a stale timestamp', { stale: true }],
    ['a key not in the JWKS', { foreignKey: true }],
  ])('refuses %s as rejected', async (_name, opts) => {
    const { provider, requestId } = await submitted();
    const err = await failure(provider.verifyWebhook!(await fake.signedWebhook(requestId, opts)));
    expect(err.kind).toBe('rejected');
  });

  it('refuses a webhook without its signature headers', async () => {
    const { provider, requestId } = await submitted();
    const req = await fake.signedWebhook(requestId);
    delete req.headers['x-fal-webhook-signature'];
    expect((await failure(provider.verifyWebhook!(req))).kind).toBe('rejected');
  });

  it('caches the JWKS, and fetches it again after a key rotation once a minute has passed', async () => {
    const { provider, requestId } = await submitted();
    await provider.verifyWebhook!(await fake.signedWebhook(requestId));
    await provider.verifyWebhook!(await fake.signedWebhook(requestId));
    const jwksFetches = () => fake.requests.filter((r) => r.server === 'rest').length;
    expect(jwksFetches()).toBe(1);

    fake.rotateWebhookKey();
    // Within a minute of the last fetch, an unknown key does not make us fetch again.
    expect((await failure(provider.verifyWebhook!(await fake.signedWebhook(requestId)))).kind).toBe(
      'rejected',
    );
    expect(jwksFetches()).toBe(1);
    clock += 2 * 60_000;
    await expect(
      provider.verifyWebhook!(await fake.signedWebhook(requestId)),
    ).resolves.toMatchObject({ providerRequestId: requestId });
    expect(jwksFetches()).toBe(2);
  });

  it('answers unavailable, not rejected, when fal’s key endpoint fails', async () => {
    const { requestId } = await submitted();
    const provider = createFalProvider({
      key: fake.key,
      queueUrl: fake.url,
      outbound: fake.outbound,
      jwksUrl: fake.jwksUrl.replace('jwks.json', 'missing.json'),
      userId: fake.env.FAL_USER_ID,
      retry: FAST,
      now: () => clock,
    });
    const keyFetches = () => fake.requests.filter((r) => r.server === 'rest').length;
    const before = keyFetches();
    const err = await failure(provider.verifyWebhook!(await fake.signedWebhook(requestId)));
    expect(err).toMatchObject({ kind: 'unavailable', status: 404 });
    expect(keyFetches() - before).toBe(1); // one attempt: the delivery waits for it
    // Remembered for a minute: no call, still unavailable (the route answers 503).
    clock += 30_000;
    const meanwhile = await failure(provider.verifyWebhook!(await fake.signedWebhook(requestId)));
    expect(meanwhile).toMatchObject({ kind: 'unavailable', retryAfterMs: 30_000 });
    expect(keyFetches() - before).toBe(1);
    clock += 31_000;
    await failure(provider.verifyWebhook!(await fake.signedWebhook(requestId)));
    expect(keyFetches() - before).toBe(2);
  });

  it('delivers over HTTP to the fal_webhook URL, which a route can verify', async () => {
    let provider: VideoProvider | undefined;
    const server = createServer((req, res) => {
      void readBody(req).then(async (text) => {
        const ok = await provider!.verifyWebhook!({
          headers: req.headers,
          rawBody: Buffer.from(text, 'utf8'),
        }).then(
          () => true,
          () => false,
        );
        res.writeHead(ok ? 204 : 401).end();
      });
    });
    const { url } = await listen(server);
    try {
      provider = adapter();
      const jobId = await provider.submit(textJob({ webhookUrl: `${url}/hooks/fal` }));
      const requestId = provider.requestIdOf(jobId);
      expect(await fake.deliverWebhook(requestId)).toBe(204);
      expect(await fake.deliverWebhook(requestId, { tamper: true })).toBe(401);
    } finally {
      await closeServer(server);
    }
  });
});
