/**
 * The Vertex AI Veo adapter against tests/fakes/vertex/ (real HTTP, Google's wire format, and a
 * real OAuth JWT-bearer exchange by google-auth-library against the fake's token endpoint).
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VideoProviderError } from '../../server/domains/video/providers/errors.ts';
import type { RetryPolicy } from '../../server/domains/video/providers/http.ts';
import type { VideoJobInput, VideoProvider } from '../../server/domains/video/providers/types.ts';
import { createVertexProvider } from '../../server/domains/video/providers/vertex/adapter.ts';
import { FAILURE_MESSAGE, RAI_REASON, startVertexFake } from '../fakes/vertex/index.ts';
import type { VertexFake } from '../fakes/vertex/index.ts';
import { testVideo } from '../fakes/video/test-video.ts';
import { guardedFetch } from '../../server/core/outbound.ts';
import { DEFAULT_OPTIONS } from '../../shared/video-options.ts';

// A 1x1 PNG, sent as the first frame.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const FAST: RetryPolicy = { attempts: 3, baseDelayMs: 1, maxDelayMs: 50, timeoutMs: 10_000 };
const OPERATION =
  /^projects\/[\w-]+\/locations\/us-central1\/publishers\/google\/models\/veo-3\.1-generate-001\/operations\/[\w-]+$/;

let fake: VertexFake;
let dir: string;

const textJob = (prompt = 'A lighthouse at dusk, waves'): VideoJobInput => ({
  prompt,
  mode: 'text',
  model: fake.models.text,
  options: DEFAULT_OPTIONS,
  taskId: 'task-1',
  deadlineAt: new Date(Date.now() + 600_000),
});
const imageJob = (): VideoJobInput => ({
  ...textJob('The cat turns its head'),
  mode: 'image',
  model: fake.models.image,
  image: { data: PNG, mimeType: 'image/png' },
});

async function failure(promise: Promise<unknown>): Promise<VideoProviderError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(VideoProviderError);
  return err as VideoProviderError;
}

const byServer = (server: string) => fake.requests.filter((r) => r.server === server);
const submits = () => fake.requests.filter((r) => r.path.endsWith(':predictLongRunning'));

/** Submits and polls until the job leaves 'running'. */
async function runToEnd(provider: VideoProvider, input: VideoJobInput) {
  const jobId = await provider.submit(input);
  for (let i = 0; i < 10; i += 1) {
    const state = await provider.poll(jobId);
    if (state.state !== 'running') return { jobId, state };
  }
  throw new Error('the job never finished');
}

beforeEach(async () => {
  fake = await startVertexFake({ pollsUntilDone: 2 });
  dir = await mkdtemp(join(tmpdir(), 'vertex-test-'));
});

afterEach(async () => {
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

describe('Vertex adapter: OAuth', () => {
  it('exchanges a signed JWT for a token once, and sends it as a bearer on every call', async () => {
    const provider = fake.createAdapter({ retry: FAST });
    const { jobId } = await runToEnd(provider, textJob());
    await provider.download(jobId, join(dir, 'a.mp4'));
    await provider.poll(jobId);

    expect(byServer('token')).toEqual([
      expect.objectContaining({ method: 'POST', path: '/token', status: 200, authorization: null }),
    ]);
    expect(fake.issuedTokens).toHaveLength(1);
    const api = byServer('api');
    expect(api.length).toBeGreaterThanOrEqual(5);
    for (const r of api) expect(r.authorization).toBe(`Bearer ${fake.issuedTokens[0]}`);
  });

  it('a key the token endpoint cannot verify is refused before any API call', async () => {
    // Same account and token_uri, another private key: the signature check must fail.
    const real = JSON.parse(await readFile(fake.keyFile, 'utf8')) as Record<string, unknown>;
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const forged = join(dir, 'forged.json');
    await writeFile(
      forged,
      JSON.stringify({ ...real, private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }) }),
    );
    const provider = createVertexProvider({
      project: fake.project,
      location: fake.location,
      apiUrl: fake.url,
      outbound: fake.outbound,
      storageUrl: fake.storageUrl,
      keyFile: forged,
      retry: FAST,
    });
    const err = await failure(provider.submit(textJob()));
    expect(err).toMatchObject({ kind: 'rejected', status: 400 });
    expect(err.message).toContain('invalid_grant: Invalid JWT Signature.');
    expect(byServer('token').map((r) => r.status)).toEqual([400]);
    expect(byServer('api')).toEqual([]);
  });

  it('a key file that is not a service-account key is refused', async () => {
    const path = join(dir, 'user.json');
    await writeFile(path, JSON.stringify({ type: 'authorized_user', refresh_token: 'x' }));
    const provider = createVertexProvider({
      project: fake.project,
      location: fake.location,
      apiUrl: fake.url,
      outbound: fake.outbound,
      keyFile: path,
    });
    const err = await failure(provider.submit(textJob()));
    expect(err.kind).toBe('rejected');
    expect(err.message).toMatch(/service-account key/);
    expect(fake.requests).toEqual([]);
  });

  it('the fake API answers 401 UNAUTHENTICATED without a valid token', async () => {
    const res = await fetch(
      `${fake.url}/v1/projects/${fake.project}/locations/${fake.location}/publishers/google/models/${fake.models.text}:predictLongRunning`,
      { method: 'POST', headers: { authorization: 'Bearer ya29.made-up' }, body: '{}' },
    );
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
  });
});

describe('Vertex adapter: successful jobs', () => {
  it('text: submits the Veo body, polls to done, downloads the inline video', async () => {
    const provider = fake.createAdapter({ retry: FAST });
    const jobId = await provider.submit(textJob());
    expect(jobId).toMatch(OPERATION);
    expect(provider.requestIdOf(jobId)).toBe(jobId);
    expect(fake.jobs.map((j) => j.requestId)).toEqual([jobId]);

    expect(submits()[0]).toMatchObject({
      method: 'POST',
      path: `/v1/projects/${fake.project}/locations/us-central1/publishers/google/models/veo-3.1-generate-001:predictLongRunning`,
      body: {
        instances: [{ prompt: 'A lighthouse at dusk, waves' }],
        parameters: {
          durationSeconds: 8,
          aspectRatio: '16:9',
          generateAudio: true,
          resolution: '720p',
          sampleCount: 1,
        },
      },
    });

    await expect(provider.poll(jobId)).resolves.toEqual({ state: 'running' });
    await expect(provider.poll(jobId)).resolves.toEqual({ state: 'succeeded' });
    const polls = fake.requests.filter((r) => r.path.endsWith(':fetchPredictOperation'));
    expect(polls.map((r) => r.body)).toEqual([{ operationName: jobId }, { operationName: jobId }]);

    // A new adapter, as after a worker restart: the job id is the whole state.
    const dest = join(dir, 'videos', 'out.mp4');
    await fake.createAdapter({ retry: FAST }).download(jobId, dest);
    expect((await readFile(dest)).equals(await testVideo())).toBe(true);
    expect(await readdir(join(dir, 'videos'))).toEqual(['out.mp4']);
  });

  it('image: sends the first frame as bytesBase64Encoded with its MIME type, to the image model', async () => {
    const provider = fake.createAdapter({ retry: FAST });
    const { jobId, state } = await runToEnd(provider, imageJob());
    expect(state).toEqual({ state: 'succeeded' });
    expect(jobId).toContain('/models/veo-3.1-fast-generate-001/operations/');

    const body = submits()[0]?.body as {
      instances: Array<{ image: { bytesBase64Encoded: string; mimeType: string } }>;
    };
    expect(body.instances[0]?.image.mimeType).toBe('image/png');
    expect(
      Buffer.from(body.instances[0]?.image.bytesBase64Encoded ?? '', 'base64').equals(PNG),
    ).toBe(true);
    expect(fake.jobs[0]?.image).toEqual({
      form: 'base64',
      mimeType: 'image/png',
      bytes: PNG.length,
    });
  });

  it('a gs:// result (storageUri configured) is read from Cloud Storage with the token', async () => {
    const provider = createVertexProvider({
      project: fake.project,
      location: fake.location,
      apiUrl: fake.url,
      outbound: fake.outbound,
      storageUrl: fake.storageUrl,
      keyFile: fake.keyFile,
      outputGcsUri: 'gs://our-videos/veo/',
      retry: FAST,
    });
    const { jobId } = await runToEnd(provider, textJob());
    expect(submits()[0]?.body).toMatchObject({
      parameters: { storageUri: 'gs://our-videos/veo/' },
    });

    const dest = join(dir, 'gcs.mp4');
    await provider.download(jobId, dest);
    expect((await readFile(dest)).equals(await testVideo())).toBe(true);
    const opId = jobId.split('/').at(-1) ?? '';
    expect(byServer('storage')).toEqual([
      expect.objectContaining({
        path: `/storage/v1/b/our-videos/o/veo%2F${opId}%2Fsample_0.mp4?alt=media`,
        status: 200,
        authorization: `Bearer ${fake.issuedTokens[0]}`,
      }),
    ]);
  });

  it('the token never goes to another origin, even when storage redirects the download', async () => {
    fake.gcs = true;
    fake.redirectMedia = true;
    const seen: Array<{ origin: string; auth: string | null }> = [];
    const recording: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      seen.push({ origin: url.origin, auth: new Headers(init?.headers).get('authorization') });
      return guardedFetch(fake.outbound)(input, init);
    };
    const provider = fake.createAdapter({ retry: FAST, fetchImpl: recording });
    const { jobId } = await runToEnd(provider, textJob());
    const dest = join(dir, 'redirected.mp4');
    await provider.download(jobId, dest);
    expect((await readFile(dest)).equals(await testVideo())).toBe(true);

    expect(byServer('storage').map((r) => r.status)).toEqual([302]);
    expect(byServer('elsewhere')).toEqual([
      expect.objectContaining({ status: 200, authorization: null }),
    ]);
    const withToken = new Set(seen.filter((s) => s.auth !== null).map((s) => s.origin));
    expect(withToken).toEqual(new Set([fake.url, fake.storageUrl]));
    // The token exchange itself went through the adapter's fetch too, to the key's token_uri.
    expect(seen.map((s) => s.origin)).toContain(new URL(fake.tokenUrl).origin);
  });
});

describe('Vertex adapter: jobs that end without a video', () => {
  it("a safety-filtered result is content_policy with Google's reasons", async () => {
    const provider = fake.createAdapter({ retry: FAST });
    const { jobId, state } = await runToEnd(provider, textJob('A scene [policy]'));
    expect(state).toEqual({ state: 'failed', kind: 'content_policy', detail: RAI_REASON });
    const err = await failure(provider.download(jobId, join(dir, 'x.mp4')));
    expect(err.kind).toBe('content_policy');
  });

  it('a prompt refused at submit (400 with the usage-guidelines text) is content_policy', async () => {
    fake.policyOnSubmit = true;
    const err = await failure(fake.createAdapter({ retry: FAST }).submit(textJob('x [policy]')));
    expect(err).toMatchObject({ kind: 'content_policy', status: 400 });
    expect(err.detail).toContain('usage guidelines');
    expect(fake.jobs).toEqual([]);
  });

  it('a generation that fails at Google is a provider failure with its message', async () => {
    const provider = fake.createAdapter({ retry: FAST });
    const { jobId, state } = await runToEnd(provider, textJob('A scene [fail]'));
    expect(state).toEqual({ state: 'failed', kind: 'provider', detail: FAILURE_MESSAGE });
    expect((await failure(provider.download(jobId, join(dir, 'x.mp4')))).kind).toBe('gone');
  });

  it('a hanging job stays running', async () => {
    const provider = fake.createAdapter({ retry: FAST });
    const jobId = await provider.submit(textJob('A scene [hang]'));
    for (let i = 0; i < 4; i += 1) {
      await expect(provider.poll(jobId)).resolves.toEqual({ state: 'running' });
    }
    // Vertex has no cancel for Veo operations: cancel resolves without a request.
    const before = fake.requests.length;
    await provider.cancel(jobId);
    expect(fake.requests.length).toBe(before);
  });
});

describe('Vertex adapter: errors', () => {
  it('429 RESOURCE_EXHAUSTED with a RetryInfo detail is rate_limited with its delay', async () => {
    fake.failSubmits(1, { status: 429, retryAfterSeconds: 30 });
    // Drop the Retry-After header so only the body's google.rpc.RetryInfo can give the delay.
    const noRetryAfter: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const headers = new Headers(res.headers);
      headers.delete('retry-after');
      return new Response(res.body, { status: res.status, headers });
    };
    const provider = fake.createAdapter({ retry: FAST, fetchImpl: noRetryAfter });
    const err = await failure(provider.submit(textJob()));
    expect(err).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 30_000 });
    expect(err.detail).toMatch(/^RESOURCE_EXHAUSTED: Resource exhausted/);
    // 30 s is above the adapter's delay cap: handed back at once, not slept on.
    expect(submits()).toHaveLength(1);
    expect(fake.jobs).toEqual([]);
  });

  it('a short Retry-After is waited out and the submit goes through', async () => {
    fake.failSubmits(1, { status: 429, retryAfterSeconds: 0.05 });
    const provider = fake.createAdapter({ retry: { ...FAST, maxDelayMs: 1000 } });
    await expect(provider.submit(textJob())).resolves.toMatch(OPERATION);
    expect(submits().map((r) => r.status)).toEqual([429, 200]);
    expect(fake.jobs).toHaveLength(1);
  });

  it('5xx on submit is retried, then unavailable, with no operation created', async () => {
    fake.failSubmits(3, { status: 503 });
    const err = await failure(fake.createAdapter({ retry: FAST }).submit(textJob()));
    expect(err).toMatchObject({ kind: 'unavailable', status: 503 });
    expect(submits().map((r) => r.status)).toEqual([503, 503, 503]);
    expect(fake.jobs).toEqual([]);
  });

  it('a 502 HTML page is retried like any 5xx', async () => {
    fake.failSubmits(1, { status: 502 });
    await fake.createAdapter({ retry: FAST }).submit(textJob());
    expect(submits().map((r) => r.status)).toEqual([502, 200]);
    expect(fake.jobs).toHaveLength(1);
  });

  it('a submit whose answer is lost after sending is in_doubt and not retried', async () => {
    fake.stallSubmits(1);
    const provider = fake.createAdapter({ retry: { ...FAST, timeoutMs: 300 } });
    const err = await failure(provider.submit(textJob()));
    expect(err.kind).toBe('in_doubt');
    expect(submits()).toHaveLength(1);
    // The job exists at Google (and would be billed): exactly why it must not be sent again.
    expect(fake.jobs).toHaveLength(1);
  });

  it('an unknown model (404 on submit) is rejected, not gone', async () => {
    const err = await failure(
      fake.createAdapter({ retry: FAST }).submit({ ...textJob(), model: 'veo-3.0-generate-001' }),
    );
    expect(err).toMatchObject({ kind: 'rejected', status: 404 });
    expect(err.detail).toMatch(
      /^NOT_FOUND: Publisher Model `.*veo-3\.0-generate-001` was not found/,
    );
    expect(submits()).toHaveLength(1);
  });

  it('another project (403 PERMISSION_DENIED) is rejected', async () => {
    const provider = createVertexProvider({
      project: 'someone-else',
      location: fake.location,
      apiUrl: fake.url,
      outbound: fake.outbound,
      keyFile: fake.keyFile,
      retry: FAST,
    });
    const err = await failure(provider.submit(textJob()));
    expect(err).toMatchObject({ kind: 'rejected', status: 403 });
  });

  it('polling an operation Google does not know is gone', async () => {
    const provider = fake.createAdapter({ retry: FAST });
    await provider.submit(textJob());
    const missing = `projects/${fake.project}/locations/us-central1/publishers/google/models/veo-3.1-generate-001/operations/nope`;
    expect(await failure(provider.poll(missing))).toMatchObject({ kind: 'gone', status: 404 });
  });

  it('a job id that is not a Veo operation name is refused without a request', async () => {
    const provider = fake.createAdapter({ retry: FAST });
    const err = await failure(provider.poll('../../v1/projects/x:predictLongRunning'));
    expect(err.kind).toBe('rejected');
    expect(fake.requests).toEqual([]);
  });

  it('refuses bad input without calling Google', async () => {
    const provider = fake.createAdapter({ retry: FAST });
    for (const input of [
      { ...textJob(), prompt: '  ' },
      { ...imageJob(), image: undefined },
      { ...textJob(), model: '../x' },
    ]) {
      expect((await failure(provider.submit(input))).kind).toBe('rejected');
    }
    expect(fake.requests).toEqual([]);
  });
});

describe('the Vertex fake checks bodies strictly', () => {
  it.each<{ name: string; parameters: Record<string, unknown>; message: RegExp }>([
    {
      name: 'durationSeconds as a string',
      parameters: { durationSeconds: '8' },
      message: /durationSeconds/,
    },
    { name: 'durationSeconds 5', parameters: { durationSeconds: 5 }, message: /4, 6 and 8/ },
    {
      name: 'no generateAudio',
      parameters: { generateAudio: undefined },
      message: /generateAudio is required/,
    },
    { name: 'an unknown parameter', parameters: { fps: 24 }, message: /Unknown name "fps"/ },
  ])('400 INVALID_ARGUMENT for $name', async ({ parameters, message }) => {
    await fake.createAdapter({ retry: FAST }).submit(textJob()); // for a token
    const res = await fetch(
      `${fake.url}/v1/projects/${fake.project}/locations/${fake.location}/publishers/google/models/${fake.models.text}:predictLongRunning`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${fake.issuedTokens[0]}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          instances: [{ prompt: 'x' }],
          parameters: { durationSeconds: 8, generateAudio: true, ...parameters },
        }),
      },
    );
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { status: string; message: string } };
    expect(error.status).toBe('INVALID_ARGUMENT');
    expect(error.message).toMatch(message);
    expect(fake.jobs).toHaveLength(1);
  });
});
