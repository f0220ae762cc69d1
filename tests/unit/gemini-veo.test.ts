/**
 * The Gemini API Veo adapter against tests/fakes/veo/ (real HTTP, Google's wire format).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createGeminiVeoProvider,
  VideoProviderError,
} from '../../server/domains/video/providers/gemini-veo.ts';
import type { VeoSettings } from '../../server/domains/video/providers/gemini-veo.ts';
import type { VideoJobInput, VideoProvider } from '../../server/domains/video/providers/types.ts';
import { startVeoFake } from '../fakes/veo/index.ts';
import type { VeoFake, VeoScenario } from '../fakes/veo/index.ts';

// Deliberately not real Google ids: the adapter must use whatever the config says.
const MODELS = { veo3: 'veo-test-text-001', 'veo3-fast-frames': 'veo-test-frames-001' };
const TEXT_JOB: VideoJobInput = {
  prompt: 'A lighthouse at dusk, waves',
  mode: 'text',
  model: 'veo3',
};
// A 1x1 PNG, sent as the first frame.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const IMAGE_JOB: VideoJobInput = {
  prompt: 'The cat turns its head',
  mode: 'image',
  model: 'veo3-fast-frames',
  image: { data: PNG, mimeType: 'image/png' },
};

let fake: VeoFake;
let dir: string;

function providerFor(overrides: Partial<VeoSettings> = {}): VideoProvider {
  return createGeminiVeoProvider({
    apiBase: fake.url,
    apiKey: fake.apiKey,
    models: MODELS,
    // Fast backoff so retry tests take milliseconds.
    retry: { attempts: 5, baseDelayMs: 1, maxDelayMs: 50 },
    ...overrides,
  });
}

async function failure(promise: Promise<unknown>): Promise<VideoProviderError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(VideoProviderError);
  return err as VideoProviderError;
}

/** `METHOD path status` of the API requests, with ids masked, for compact assertions. */
const kinds = () =>
  fake.requests.map((r) => {
    if (r.server === 'storage') return `storage ${r.status}`;
    if (r.path.includes(':predictLongRunning')) return `submit ${r.status}`;
    if (r.path.includes('/operations/')) return `poll ${r.status}`;
    return `file ${r.status}`;
  });

/** Submits, polls until the job leaves 'running', and returns the job id and final state. */
async function runToEnd(provider: VideoProvider, input: VideoJobInput) {
  const jobId = await provider.submit(input);
  for (;;) {
    const state = await provider.poll(jobId);
    if (state.state !== 'running') return { jobId, state };
  }
}

beforeEach(async () => {
  fake = await startVeoFake({ pollsUntilDone: 2, models: Object.values(MODELS) });
  dir = await mkdtemp(join(tmpdir(), 'veo-test-'));
});

afterEach(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

describe('Veo adapter: a successful job', () => {
  it('submits with the configured model id and key, polls to done, and downloads the bytes', async () => {
    const provider = providerFor();
    const jobId = await provider.submit(TEXT_JOB);
    expect(jobId).toMatch(/^models\/veo-test-text-001\/operations\/[\w-]+$/);

    await expect(provider.poll(jobId)).resolves.toEqual({ state: 'running' });
    await expect(provider.poll(jobId)).resolves.toEqual({ state: 'succeeded' });

    // A new provider, as after a worker restart: nothing may come from the first one's memory.
    const dest = join(dir, 'media', 'videos', 'out.mp4');
    await providerFor().download(jobId, dest);
    const bytes = await readFile(dest);
    expect(bytes.equals(fake.video)).toBe(true);
    expect(fake.video.subarray(4, 8).toString('latin1')).toBe('ftyp');
    // No temporary file is left beside the video.
    expect(await readdir(join(dir, 'media', 'videos'))).toEqual(['out.mp4']);

    const [submit] = fake.requests;
    expect(submit).toMatchObject({
      method: 'POST',
      path: '/v1beta/models/veo-test-text-001:predictLongRunning',
      apiKey: fake.apiKey,
      body: {
        instances: [{ prompt: TEXT_JOB.prompt }],
        parameters: { aspectRatio: '16:9', durationSeconds: 8, sampleCount: 1 },
      },
    });
    expect(kinds()).toEqual([
      'submit 200',
      'poll 200',
      'poll 200',
      'poll 200', // download re-reads the operation for the uri
      'file 302',
      'storage 200',
    ]);
    for (const r of fake.requests) {
      // The key goes with every API call and never to the storage host we are redirected to.
      expect(r.apiKey).toBe(r.server === 'api' ? fake.apiKey : null);
    }
  });

  it('sends the first frame base64 with its MIME type in image mode, to the frames model', async () => {
    const provider = providerFor();
    const { jobId, state } = await runToEnd(provider, IMAGE_JOB);
    expect(state).toEqual({ state: 'succeeded' });
    expect(jobId).toMatch(/^models\/veo-test-frames-001\/operations\//);

    const [submit] = fake.requests;
    expect(submit?.path).toBe('/v1beta/models/veo-test-frames-001:predictLongRunning');
    expect(submit?.body).toEqual({
      instances: [
        {
          prompt: IMAGE_JOB.prompt,
          image: { bytesBase64Encoded: PNG.toString('base64'), mimeType: 'image/png' },
        },
      ],
      parameters: { aspectRatio: '16:9', durationSeconds: 8, sampleCount: 1 },
    });
  });

  it('sends personGeneration only when configured for the mode', async () => {
    const provider = providerFor({ personGeneration: { image: 'allow_adult' } });
    await provider.submit(IMAGE_JOB);
    await provider.submit(TEXT_JOB);
    const [image, text] = fake.requests.map((r) => r.body as { parameters: object });
    expect(image?.parameters).toMatchObject({ personGeneration: 'allow_adult' });
    expect(text?.parameters).not.toHaveProperty('personGeneration');
  });
});

describe('Veo adapter: jobs that end without a video', () => {
  it.each<{ scenario: VeoScenario; reason: () => string }>([
    { scenario: 'rai', reason: () => fake.raiReason },
    { scenario: 'error', reason: () => fake.operationErrorMessage },
  ])('$scenario → failed with the reason', async ({ scenario, reason }) => {
    fake.setScenario(scenario, { prompt: TEXT_JOB.prompt });
    const provider = providerFor();
    const { jobId, state } = await runToEnd(provider, TEXT_JOB);
    expect(state.state).toBe('failed');
    expect(state.state === 'failed' && state.reason).toContain(reason());

    // download has nothing to fetch, and says why, without touching the file endpoint.
    const err = await failure(provider.download(jobId, join(dir, 'x.mp4')));
    expect(err.retryable).toBe(false);
    expect(err.message).toContain(reason());
    expect(kinds().filter((k) => k.startsWith('file'))).toEqual([]);
  });

  it('applies a scenario per model', async () => {
    fake.setScenario('rai', { model: MODELS['veo3-fast-frames'] });
    const provider = providerFor();
    expect((await runToEnd(provider, IMAGE_JOB)).state.state).toBe('failed');
    expect((await runToEnd(provider, TEXT_JOB)).state.state).toBe('succeeded');
  });
});

describe('Veo adapter: retries', () => {
  it.each<{ scenario: VeoScenario; status: number }>([
    { scenario: 'flaky429', status: 429 },
    { scenario: 'flaky500', status: 500 },
  ])('$scenario: each step fails once, is retried, and the job completes', async (t) => {
    fake.setScenario(t.scenario);
    const provider = providerFor();
    const { jobId, state } = await runToEnd(provider, TEXT_JOB);
    expect(state).toEqual({ state: 'succeeded' });
    const dest = join(dir, 'out.mp4');
    await provider.download(jobId, dest);
    expect((await readFile(dest)).equals(fake.video)).toBe(true);

    expect(kinds()).toEqual([
      `submit ${t.status}`,
      'submit 200',
      `poll ${t.status}`,
      'poll 200',
      'poll 200',
      'poll 200',
      `file ${t.status}`,
      'file 302',
      'storage 200',
    ]);
  });

  it('gives up on a persistent 500 after the configured attempts, with a retryable error', async () => {
    fake.setScenario('flaky500');
    fake.flakyFailures = 1000;
    const err = await failure(
      providerFor({ retry: { attempts: 3, baseDelayMs: 1 } }).submit(TEXT_JOB),
    );
    expect(err.retryable).toBe(true);
    expect(err.status).toBe(500);
    expect(err.message).toMatch(
      /HTTP 500 INTERNAL.*An internal error has occurred.*after 3 attempts/,
    );
    expect(kinds()).toEqual(['submit 500', 'submit 500', 'submit 500']);
  });

  it('waits as long as Retry-After says', async () => {
    fake.setScenario('flaky429');
    fake.retryAfterSeconds = 0.2;
    const started = Date.now();
    await providerFor({ retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 5_000 } }).submit(
      TEXT_JOB,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(kinds()).toEqual(['submit 429', 'submit 200']);
  });

  it('hands a Retry-After longer than its delay cap back to the caller at once', async () => {
    fake.setScenario('flaky429');
    fake.retryAfterSeconds = 60;
    const err = await failure(providerFor().submit(TEXT_JOB));
    expect(err).toMatchObject({ retryable: true, status: 429, retryAfterMs: 60_000 });
    expect(kinds()).toEqual(['submit 429']);
  });

  it('retries when the API cannot be reached, then fails retryably', async () => {
    const url = fake.url;
    await fake.close();
    const provider = createGeminiVeoProvider({
      apiBase: url,
      apiKey: 'k',
      models: MODELS,
      retry: { attempts: 2, baseDelayMs: 1 },
    });
    const err = await failure(provider.poll('models/veo-test-text-001/operations/abc'));
    expect(err.retryable).toBe(true);
    expect(err.message).toMatch(/no answer from 127\.0\.0\.1.*after 2 attempts/);
    fake = await startVeoFake(); // for afterEach
  });

  it('stops at once when the caller aborts during a backoff', async () => {
    fake.setScenario('flaky500');
    fake.flakyFailures = 1000;
    const provider = providerFor({
      retry: { attempts: 5, baseDelayMs: 10_000, maxDelayMs: 10_000 },
    });
    const controller = new AbortController();
    const pending = provider.submit(TEXT_JOB, controller.signal);
    setTimeout(() => controller.abort(new Error('worker shutting down')), 50);
    await expect(pending).rejects.toThrow('worker shutting down');
    expect(kinds()).toEqual(['submit 500']);
  });
});

describe('Veo adapter: errors that are not retried', () => {
  it.each<{ name: string; settings: Partial<VeoSettings>; status: number; message: RegExp }>([
    {
      name: 'a wrong key',
      settings: { apiKey: 'AIzaSy-wrong' },
      status: 400,
      message: /HTTP 400 INVALID_ARGUMENT.*API key not valid/,
    },
    {
      name: 'a parameter the API refuses (400)',
      settings: { personGeneration: { text: 'allow_everyone' } },
      status: 400,
      message: /HTTP 400 INVALID_ARGUMENT.*personGeneration/,
    },
    {
      name: 'a model id Google does not know (404)',
      settings: { models: { veo3: 'veo-retired-001' } },
      status: 404,
      message: /HTTP 404 NOT_FOUND.*models\/veo-retired-001 is not found/,
    },
  ])('$name fails at once with the API message', async ({ settings, status, message }) => {
    const err = await failure(providerFor(settings).submit(TEXT_JOB));
    expect(err).toMatchObject({ retryable: false, status });
    expect(err.message).toMatch(message);
    expect(fake.requests).toHaveLength(1);
  });

  it('the fake refuses a missing key with 403 PERMISSION_DENIED', async () => {
    const res = await fetch(`${fake.url}/v1beta/models/veo-test-text-001:predictLongRunning`, {
      method: 'POST',
      body: '{}',
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({
      error: { code: 403, status: 'PERMISSION_DENIED' },
    });
  });

  it.each<{ name: string; body: unknown; message: RegExp }>([
    {
      name: 'a prompt that is not a string',
      body: { instances: [{ prompt: 7 }] },
      message: /prompt/,
    },
    {
      name: 'durationSeconds as a string',
      body: { instances: [{ prompt: 'x' }], parameters: { durationSeconds: '8' } },
      message: /durationSeconds needs to be a number/,
    },
    {
      name: 'an image without a MIME type',
      body: { instances: [{ prompt: 'x', image: { bytesBase64Encoded: 'AAAA' } }] },
      message: /MIME type/,
    },
    {
      name: 'an image that is not base64',
      body: {
        instances: [{ prompt: 'x', image: { bytesBase64Encoded: '%%', mimeType: 'image/png' } }],
      },
      message: /base64/,
    },
    {
      name: 'an unknown field',
      body: { instances: [{ prompt: 'x', inlineData: {} }] },
      message: /Unknown name "inlineData"/,
    },
  ])('the fake answers 400 INVALID_ARGUMENT to $name', async ({ body, message }) => {
    const res = await fetch(`${fake.url}/v1beta/models/veo-test-text-001:predictLongRunning`, {
      method: 'POST',
      headers: { 'x-goog-api-key': fake.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(400);
    const json = (await res.json()) as { error: { code: number; status: string; message: string } };
    expect(json.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(json.error.message).toMatch(message);
  });

  it.each<{ name: string; input: VideoJobInput; message: RegExp }>([
    { name: 'our model has no mapping', input: { ...TEXT_JOB, model: 'sora' }, message: /"sora"/ },
    { name: 'the prompt is blank', input: { ...TEXT_JOB, prompt: '  ' }, message: /prompt/ },
    {
      name: 'image mode has no image',
      input: { ...IMAGE_JOB, image: undefined },
      message: /needs an image/,
    },
  ])('submit refuses, without calling Google, when $name', async ({ input, message }) => {
    const err = await failure(providerFor().submit(input));
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(message);
    expect(fake.requests).toEqual([]);
  });

  it('poll refuses a job id that is not an operation name', async () => {
    const err = await failure(providerFor().poll('../../v1beta/files/x'));
    expect(err.retryable).toBe(false);
    expect(fake.requests).toEqual([]);
  });

  it('poll of an unknown operation is a 404 error', async () => {
    const err = await failure(providerFor().poll('models/veo-test-text-001/operations/nope'));
    expect(err).toMatchObject({ retryable: false, status: 404 });
  });
});

describe('Veo adapter: download', () => {
  it('a file the API no longer serves fails clearly and leaves nothing behind', async () => {
    fake.setScenario('downloadFails');
    const provider = providerFor();
    const { jobId, state } = await runToEnd(provider, TEXT_JOB);
    expect(state).toEqual({ state: 'succeeded' });

    const dest = join(dir, 'out.mp4');
    const err = await failure(provider.download(jobId, dest));
    expect(err).toMatchObject({ retryable: false, status: 404 });
    expect(err.message).toMatch(
      /Veo video download failed \(HTTP 404 NOT_FOUND\).*could not be fetched/,
    );
    expect(await readdir(dir)).toEqual([]);
    expect(kinds().slice(-1)).toEqual(['file 404']);
  });

  it('refuses to download a job that is still running, retryably', async () => {
    fake.pollsUntilDone = 10;
    const provider = providerFor();
    const jobId = await provider.submit(TEXT_JOB);
    const err = await failure(provider.download(jobId, join(dir, 'out.mp4')));
    expect(err.retryable).toBe(true);
    expect(err.message).toMatch(/not finished/);
  });

  it('a wrong key fails the download (the operation read) at once', async () => {
    const jobId = await providerFor().submit(TEXT_JOB);
    const err = await failure(
      providerFor({ apiKey: 'AIzaSy-wrong' }).download(jobId, join(dir, 'a.mp4')),
    );
    expect(err).toMatchObject({ retryable: false, status: 400 });
    expect(err.message).toMatch(/API key not valid/);
  });
});
