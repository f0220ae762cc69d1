/**
 * The Gemini API video adapter (Gemini Omni through the Interactions API) against
 * tests/fakes/gemini/ (real HTTP, Google's wire format and error JSON).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VideoProviderError } from '../../server/domains/video/providers/errors.ts';
import type { RetryPolicy } from '../../server/domains/video/providers/http.ts';
import {
  parseGoogleError,
  parseInteraction,
} from '../../server/domains/video/providers/gemini/wire.ts';
import type { VideoJobInput, VideoProvider } from '../../server/domains/video/providers/types.ts';
import { FAIL_MESSAGE, POLICY_MESSAGE, startGeminiFake } from '../fakes/gemini/index.ts';
import type { GeminiFake } from '../fakes/gemini/index.ts';
import { DEFAULT_OPTIONS } from '../../shared/video-options.ts';

// A 1x1 PNG, sent as the first frame.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
// Fast backoff so retry tests take milliseconds.
const RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 1, maxDelayMs: 50 };

let fake: GeminiFake;
let dir: string;

function job(overrides: Partial<VideoJobInput> = {}): VideoJobInput {
  return {
    prompt: 'A lighthouse at dusk, waves breaking below',
    mode: 'text',
    model: fake.models.text,
    options: DEFAULT_OPTIONS,
    taskId: 'task-1',
    deadlineAt: new Date(Date.now() + 3_600_000),
    ...overrides,
  };
}

const imageJob = () =>
  job({
    prompt: 'The cat turns its head',
    mode: 'image',
    model: fake.models.image,
    image: { data: PNG, mimeType: 'image/png' },
  });

function adapter(opts: { retry?: RetryPolicy; fetchImpl?: typeof fetch } = {}): VideoProvider {
  return fake.createAdapter({ retry: RETRY, ...opts });
}

async function failure(promise: Promise<unknown>): Promise<VideoProviderError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(VideoProviderError);
  return err as VideoProviderError;
}

/** A fetch that rewrites the JSON body of the create call before it leaves. */
const rewritingBody =
  (change: (body: Record<string, unknown>) => void): typeof fetch =>
  (url, init) => {
    if (
      init?.method === 'POST' &&
      typeof init.body === 'string' &&
      String(url).endsWith('/interactions')
    ) {
      const body = JSON.parse(init.body) as Record<string, unknown>;
      change(body);
      return fetch(url, { ...init, body: JSON.stringify(body) });
    }
    return fetch(url, init);
  };

const submits = () =>
  fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1beta/interactions');

beforeEach(async () => {
  fake = await startGeminiFake({ pollsUntilDone: 2 });
  dir = await mkdtemp(join(tmpdir(), 'gemini-test-'));
});

afterEach(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

describe('Gemini adapter: successful jobs', () => {
  it('creates a background video interaction, polls it to done and downloads the bytes', async () => {
    const provider = adapter();
    const jobId = await provider.submit(job());
    expect(jobId).toBe(fake.jobs[0]?.requestId);
    expect(provider.requestIdOf(jobId)).toBe(jobId);
    expect(provider.name).toBe('gemini');
    expect(provider.verifyWebhook).toBeUndefined();

    await expect(provider.poll(jobId)).resolves.toEqual({ state: 'running' });
    await expect(provider.poll(jobId)).resolves.toEqual({ state: 'succeeded' });

    // A new adapter, as after a worker restart: nothing may come from the first one's memory.
    const dest = join(dir, 'videos', 'out.mp4');
    await adapter().download(jobId, dest);
    expect((await readFile(dest)).equals(await fake.video())).toBe(true);
    expect(await readdir(join(dir, 'videos'))).toEqual(['out.mp4']);

    expect(submits()).toHaveLength(1);
    expect(submits()[0]?.body).toEqual({
      model: 'gemini-omni-1.2-flash',
      input: 'A lighthouse at dusk, waves breaking below',
      background: true,
      response_format: {
        type: 'video',
        aspect_ratio: '16:9',
        duration: '8s',
        resolution: '720p',
        delivery: 'uri',
      },
      generation_config: { video_config: { task: 'text_to_video' } },
    });
  });

  it('sends the first frame as an image block with base64 data and its MIME type', async () => {
    const provider = adapter();
    const jobId = await provider.submit(imageJob());
    await provider.poll(jobId);
    await expect(provider.poll(jobId)).resolves.toEqual({ state: 'succeeded' });

    const body = submits()[0]?.body as Record<string, unknown>;
    expect(body.input).toEqual([
      { type: 'text', text: 'The cat turns its head' },
      { type: 'image', data: PNG.toString('base64'), mime_type: 'image/png' },
    ]);
    expect(body.generation_config).toEqual({ video_config: { task: 'image_to_video' } });
    expect(fake.jobs[0]?.image).toEqual({
      form: 'base64',
      mimeType: 'image/png',
      bytes: PNG.length,
    });
    expect(fake.images.get(jobId)?.equals(PNG)).toBe(true);

    const dest = join(dir, 'image.mp4');
    await provider.download(jobId, dest);
    expect((await readFile(dest)).equals(await fake.video())).toBe(true);
  });

  it('sends the key to the API only, never to the storage host the file route redirects to', async () => {
    const provider = adapter();
    const jobId = await provider.submit(job());
    await provider.poll(jobId);
    await provider.poll(jobId);
    await provider.download(jobId, join(dir, 'out.mp4'));

    expect(new URL(fake.storageUrl).origin).not.toBe(new URL(fake.url).origin);
    const file = fake.requests.find((r) => r.path.includes(':download'));
    expect(file).toMatchObject({ server: 'api', status: 302, apiKey: fake.apiKey });
    const stored = fake.requests.filter((r) => r.server === 'storage');
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ status: 200, apiKey: null });
    for (const r of fake.requests.filter((r) => r.server === 'api'))
      expect(r.apiKey).toBe(fake.apiKey);
  });

  it('writes inline base64 video when the interaction carries the data itself', async () => {
    const provider = adapter({
      fetchImpl: rewritingBody((body) => {
        (body.response_format as Record<string, unknown>).delivery = 'inline';
      }),
    });
    const jobId = await provider.submit(job());
    await provider.poll(jobId);
    await provider.poll(jobId);
    const dest = join(dir, 'inline.mp4');
    await provider.download(jobId, dest);
    expect((await readFile(dest)).equals(await fake.video())).toBe(true);
    expect(fake.requests.some((r) => r.path.includes(':download') || r.server === 'storage')).toBe(
      false,
    );
  });
});

describe('Gemini adapter: failed generations', () => {
  it('reports a safety block as content_policy with Google’s text', async () => {
    const provider = adapter();
    const jobId = await provider.submit(job({ prompt: '[policy] something forbidden' }));
    await provider.poll(jobId);
    await expect(provider.poll(jobId)).resolves.toEqual({
      state: 'failed',
      kind: 'content_policy',
      detail: POLICY_MESSAGE,
    });
    const err = await failure(provider.download(jobId, join(dir, 'none.mp4')));
    expect(err.kind).toBe('gone');
  });

  it('reports any other failure as provider with Google’s text', async () => {
    const provider = adapter();
    const jobId = await provider.submit(job({ prompt: '[fail] a storm' }));
    await provider.poll(jobId);
    await expect(provider.poll(jobId)).resolves.toEqual({
      state: 'failed',
      kind: 'provider',
      detail: FAIL_MESSAGE,
    });
  });

  it('reads a refusal that completed with text only, and a 400 safety block on submit', () => {
    const refusal = parseInteraction({
      id: 'v1_x',
      status: 'completed',
      steps: [
        { type: 'user_input', content: [{ type: 'text', text: 'x' }] },
        {
          type: 'model_output',
          content: [{ type: 'text', text: 'Your request was blocked by our safety policy.' }],
        },
      ],
    });
    expect(refusal?.state).toEqual({
      state: 'failed',
      kind: 'content_policy',
      detail: 'Your request was blocked by our safety policy.',
    });
    const empty = parseInteraction({ id: 'v1_y', status: 'completed', steps: [] });
    expect(empty?.state).toMatchObject({ state: 'failed', kind: 'provider' });

    const blocked = JSON.stringify({
      error: { code: 400, message: POLICY_MESSAGE, status: 'INVALID_ARGUMENT' },
    });
    expect(parseGoogleError(400, blocked)).toEqual({
      message: POLICY_MESSAGE,
      kind: 'content_policy',
    });
    const plain = JSON.stringify({
      error: { code: 400, message: 'Invalid value', status: 'INVALID_ARGUMENT' },
    });
    expect(parseGoogleError(400, plain).kind).toBeUndefined();
  });
});

describe('Gemini adapter: refused and failed calls', () => {
  it('turns 429 RESOURCE_EXHAUSTED into rate_limited with the wait Google asked for', async () => {
    fake.failSubmits(1, { status: 429, retryAfterSeconds: 30 });
    const err = await failure(adapter().submit(job()));
    expect(err).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 30_000 });
    expect(submits()).toHaveLength(1);
    expect(fake.jobs).toHaveLength(0);
  });

  it('reads the wait from google.rpc.RetryInfo when there is no Retry-After header', async () => {
    fake.failSubmits(1, { status: 429, retryAfterSeconds: 45 });
    const withoutHeader: typeof fetch = async (url, init) => {
      const res = await fetch(url, init);
      const headers = new Headers(res.headers);
      headers.delete('retry-after');
      return new Response(res.body, { status: res.status, headers });
    };
    const err = await failure(adapter({ fetchImpl: withoutHeader }).submit(job()));
    expect(err).toMatchObject({ kind: 'rate_limited', retryAfterMs: 45_000 });
  });

  it('retries a 5xx submit, then reports unavailable without an interaction', async () => {
    fake.failSubmits(3, { status: 503 });
    const err = await failure(adapter().submit(job()));
    expect(err).toMatchObject({ kind: 'unavailable', status: 503 });
    expect(submits().map((r) => r.status)).toEqual([503, 503, 503]);
    expect(fake.jobs).toHaveLength(0);
  });

  it('succeeds when a retried 5xx submit is accepted the next time', async () => {
    fake.failSubmits(1, { status: 500 });
    const jobId = await adapter().submit(job());
    expect(submits().map((r) => r.status)).toEqual([500, 200]);
    expect(fake.jobs.map((j) => j.requestId)).toEqual([jobId]);
  });

  it('reports in_doubt, once, when the answer to a sent submit is lost', async () => {
    fake.submitDelayMs = 2_000;
    const provider = adapter({ retry: { ...RETRY, timeoutMs: 200 } });
    const err = await failure(provider.submit(job()));
    expect(err.kind).toBe('in_doubt');
    expect(submits()).toHaveLength(1);
    // Google did create it: exactly why a retry could generate (and bill) twice.
    expect(fake.jobs).toHaveLength(1);
  });

  it('refuses a retired Veo id with Google’s own text', async () => {
    const err = await failure(adapter().submit(job({ model: 'veo-3.1-generate-preview' })));
    expect(err).toMatchObject({ kind: 'rejected', status: 404 });
    expect(err.detail).toContain('models/veo-3.1-generate-preview is no longer available');
    expect(fake.jobs).toHaveLength(0);
  });

  it('refuses an unknown model as rejected, not gone', async () => {
    const err = await failure(adapter().submit(job({ model: 'gemini-omni-9-ultra' })));
    expect(err).toMatchObject({ kind: 'rejected', status: 404 });
    expect(err.detail).toContain('models/gemini-omni-9-ultra is not found');
  });

  it('reports an interaction Google no longer has as gone', async () => {
    const err = await failure(adapter().poll('v1_doesnotexist'));
    expect(err).toMatchObject({ kind: 'gone', status: 404 });
  });

  it('reports a wrong key as rejected without retrying', async () => {
    const wrongKey: typeof fetch = (url, init) =>
      fetch(url, { ...init, headers: { ...init?.headers, 'x-goog-api-key': 'AIza-wrong' } });
    const err = await failure(adapter({ fetchImpl: wrongKey }).submit(job()));
    expect(err).toMatchObject({ kind: 'rejected', status: 400 });
    expect(err.detail).toBe('API key not valid. Please pass a valid API key.');
    expect(submits()).toHaveLength(1);
  });

  it('checks the job before sending anything', async () => {
    const err = await failure(adapter().submit(job({ mode: 'image' })));
    expect(err.kind).toBe('rejected');
    expect(fake.requests).toHaveLength(0);
  });
});

describe('Gemini adapter: cancel', () => {
  it('cancels a running interaction at Google', async () => {
    const provider = adapter();
    const jobId = await provider.submit(job({ prompt: '[hang] an endless shot' }));
    await provider.poll(jobId);
    await expect(provider.poll(jobId)).resolves.toEqual({ state: 'running' });

    await provider.cancel(jobId);
    const cancels = fake.requests.filter((r) => r.path === `/v1beta/interactions/${jobId}/cancel`);
    expect(cancels).toMatchObject([{ method: 'POST', status: 200, apiKey: fake.apiKey }]);
    expect(fake.jobs[0]).toMatchObject({ canceled: true, status: 'cancelled' });
    await expect(provider.poll(jobId)).resolves.toMatchObject({
      state: 'failed',
      kind: 'provider',
    });
  });

  it('resolves when the interaction had already finished', async () => {
    fake.pollsUntilDone = 1;
    const provider = adapter();
    const jobId = await provider.submit(job());
    await expect(provider.poll(jobId)).resolves.toEqual({ state: 'succeeded' });
    await expect(provider.cancel(jobId)).resolves.toBeUndefined();
    expect(fake.requests.find((r) => r.path.endsWith('/cancel'))?.status).toBe(400);
    expect(fake.jobs[0]?.canceled).toBe(false);
  });
});

describe('Gemini fake: strict body check', () => {
  it.each([
    ['an unknown field', (b: Record<string, unknown>) => (b.negative_prompt = 'blur')],
    [
      'a numeric duration',
      (b: Record<string, unknown>) => ((b.response_format as Record<string, unknown>).duration = 8),
    ],
    [
      'an unknown resolution',
      (b: Record<string, unknown>) =>
        ((b.response_format as Record<string, unknown>).resolution = '900p'),
    ],
    [
      'an unknown aspect ratio',
      (b: Record<string, unknown>) =>
        ((b.response_format as Record<string, unknown>).aspect_ratio = '4:3'),
    ],
    [
      'a duration over the model’s limit',
      (b: Record<string, unknown>) =>
        ((b.response_format as Record<string, unknown>).duration = '20s'),
    ],
  ])('answers 400 INVALID_ARGUMENT for %s', async (_name, change) => {
    const err = await failure(adapter({ fetchImpl: rewritingBody(change) }).submit(job()));
    expect(err).toMatchObject({ kind: 'rejected', status: 400 });
    expect(fake.jobs).toHaveLength(0);
  });
});
