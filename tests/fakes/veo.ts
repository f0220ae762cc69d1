/**
 * A local Gemini API that speaks Veo's wire format over real HTTP, so the production adapter in
 * server/domains/video/providers/gemini-veo.ts is what tests exercise:
 * - `POST /v1beta/models/{model}:predictLongRunning` (strict body check, Google's error JSON),
 * - `GET /v1beta/models/{model}/operations/{id}` (done after `pollsUntilDone` polls),
 * - `GET /v1beta/files/{id}:download?alt=media`, which needs the key and redirects, like Google's,
 *   to a signed URL on a second server (another origin, so tests can see the key never goes there).
 * The served video is a real 1-second MP4 made once per process with @ffmpeg-installer/ffmpeg;
 * if that binary is missing we serve a bare `ftyp` box instead (`videoIsReal` says which).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export type VeoScenario =
  /** Running for `pollsUntilDone - 1` polls, then a video. */
  | 'success'
  /** Done with no samples: the safety filter dropped the video (`raiReason`). */
  | 'rai'
  /** Done with `error: { code, message }` (`operationErrorMessage`). */
  | 'error'
  /** The first `flakyFailures` submits, polls and downloads of a job answer 429, then as 'success'. */
  | 'flaky429'
  /** Same with 500. */
  | 'flaky500'
  /** Generation succeeds but the file endpoint answers 404 (an expired or deleted file). */
  | 'downloadFails';

export interface VeoFakeRequest {
  server: 'api' | 'storage';
  method: string;
  /** Path and query (the key travels in a header, never the query). */
  path: string;
  /** The `x-goog-api-key` header as received, or null. */
  apiKey: string | null;
  /** The parsed JSON body of a POST (undefined when absent or not JSON). */
  body?: unknown;
  /** The status we answered. */
  status: number;
}

export interface VeoFake {
  /** The API's base URL: give it to the adapter as `apiBase`. */
  url: string;
  /** The storage server the file endpoint redirects to (another origin). */
  storageUrl: string;
  apiKey: string;
  /** Every request to either server, oldest first. */
  requests: VeoFakeRequest[];
  /** The exact bytes the storage server serves. */
  video: Buffer;
  /** True when `video` is an MP4 made by ffmpeg, false when it is a placeholder. */
  videoIsReal: boolean;
  /** The poll (1-based) on which an operation reports done. */
  pollsUntilDone: number;
  /** How many times each step of a flaky job fails before it works. */
  flakyFailures: number;
  /** When set, 429s carry `Retry-After` and a RetryInfo detail with this many seconds. */
  retryAfterSeconds: number | null;
  readonly raiReason: string;
  readonly operationErrorMessage: string;
  /**
   * Sets the scenario for new jobs: of one prompt, of one model, or (no target) the default.
   * A prompt's scenario wins over its model's, which wins over the default.
   */
  setScenario(scenario: VeoScenario, target?: { model?: string; prompt?: string }): void;
  close(): Promise<void>;
}

interface Job {
  id: string;
  model: string;
  scenario: VeoScenario;
  polls: number;
  failures: { poll: number; download: number };
}

const RAI_REASON =
  'Sorry, we could not create this video: your prompt may violate our usage guidelines. ' +
  'You have not been charged. (support code 17301594)';
const OPERATION_ERROR_MESSAGE = 'Video generation failed: the model ran into an internal problem.';
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp']);
const PARAMETERS: Record<string, (value: unknown) => string | null> = {
  aspectRatio: (v) => (v === '16:9' || v === '9:16' ? null : 'must be "16:9" or "9:16"'),
  // The live API refuses the string form some doc samples show.
  durationSeconds: (v) =>
    typeof v !== 'number'
      ? 'The value type for durationSeconds needs to be a number.'
      : [4, 6, 8].includes(v)
        ? null
        : 'must be 4, 6 or 8',
  sampleCount: (v) => (v === 1 ? null : 'must be 1 for this model'),
  personGeneration: (v) =>
    v === 'allow_all' || v === 'allow_adult' || v === 'dont_allow'
      ? null
      : 'must be one of allow_all, allow_adult, dont_allow',
  negativePrompt: (v) => (typeof v === 'string' ? null : 'must be a string'),
  resolution: (v) => (v === '720p' || v === '1080p' ? null : 'must be "720p" or "1080p"'),
};

let videoOnce: Promise<{ video: Buffer; real: boolean }> | undefined;

/** Makes the test video once per process (about 12 KB: 1 s of 64x36 test pattern with a tone). */
function testVideo(): Promise<{ video: Buffer; real: boolean }> {
  videoOnce ??= (async () => {
    let ffmpegPath: string;
    try {
      ffmpegPath = (await import('@ffmpeg-installer/ffmpeg')).default.path;
    } catch {
      return { video: placeholderMp4(), real: false };
    }
    const dir = await mkdtemp(join(tmpdir(), 'veo-fake-'));
    try {
      const out = join(dir, 'video.mp4');
      // prettier-ignore
      await promisify(execFile)(ffmpegPath, [
        '-hide_banner', '-loglevel', 'error', '-y',
        '-f', 'lavfi', '-i', 'testsrc=size=64x36:rate=8:duration=1',
        '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1',
        '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest',
        '-movflags', '+faststart', out,
      ]);
      return { video: await readFile(out), real: true };
    } catch {
      return { video: placeholderMp4(), real: false };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
  return videoOnce;
}

/** Just an `ftyp` box: enough to look like an MP4 to a sniffer, not to play. */
function placeholderMp4(): Buffer {
  const box = Buffer.alloc(24);
  box.writeUInt32BE(24, 0);
  box.write('ftypisom', 4, 'latin1');
  box.writeUInt32BE(0x200, 12);
  box.write('isomiso2', 16, 'latin1');
  return box;
}

type Send = (status: number, body: unknown) => void;

const googleError = (code: number, status: string, message: string, details?: unknown[]) => ({
  error: { code, message, status, ...(details ? { details } : {}) },
});

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Google's INVALID_ARGUMENT for a malformed predictLongRunning body, or null when it is fine. */
function bodyProblem(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return 'Invalid JSON payload received. Expected an object.';
  }
  const { instances, parameters, ...rest } = body as Record<string, unknown>;
  const unknownTop = Object.keys(rest)[0];
  if (unknownTop)
    return `Invalid JSON payload received. Unknown name "${unknownTop}": Cannot find field.`;
  if (!Array.isArray(instances) || instances.length !== 1) {
    return 'instances must be a list with exactly one instance.';
  }
  const instance = instances[0] as Record<string, unknown> | null;
  if (typeof instance !== 'object' || instance === null) return 'instances[0] must be an object.';
  const { prompt, image, ...instanceRest } = instance;
  const unknownInstance = Object.keys(instanceRest)[0];
  if (unknownInstance) {
    return `Invalid JSON payload received. Unknown name "${unknownInstance}" at 'instances[0]': Cannot find field.`;
  }
  if (typeof prompt !== 'string' || prompt.trim() === '') {
    return 'instances[0].prompt must be a non-empty string.';
  }
  if (image !== undefined) {
    const { bytesBase64Encoded, mimeType, ...imageRest } = (image ?? {}) as Record<string, unknown>;
    const unknownImage = Object.keys(imageRest)[0];
    if (unknownImage) {
      return `Invalid JSON payload received. Unknown name "${unknownImage}" at 'instances[0].image': Cannot find field.`;
    }
    if (
      typeof bytesBase64Encoded !== 'string' ||
      bytesBase64Encoded === '' ||
      bytesBase64Encoded.length % 4 !== 0 ||
      !/^[A-Za-z0-9+/]+={0,2}$/.test(bytesBase64Encoded)
    ) {
      return 'instances[0].image.bytesBase64Encoded must be standard base64.';
    }
    if (typeof mimeType !== 'string' || !IMAGE_TYPES.has(mimeType)) {
      return `Unsupported MIME type for instances[0].image: ${String(mimeType)}.`;
    }
  }
  if (parameters !== undefined) {
    if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) {
      return 'parameters must be an object.';
    }
    for (const [key, value] of Object.entries(parameters)) {
      const check = PARAMETERS[key];
      if (!check) return `\`${key}\` isn't supported by this model.`;
      const problem = check(value);
      if (problem) return problem.includes(key) ? problem : `parameters.${key} ${problem}.`;
    }
  }
  return null;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    // fetch keeps connections alive; drop them so close() does not wait for their timeout.
    server.closeAllConnections();
    server.close((err) => (err ? reject(err) : resolve()));
  });
}

/** Starts a fake Gemini API (and its storage host) on 127.0.0.1 with random ports. */
export async function startVeoFake(
  opts: { apiKey?: string; pollsUntilDone?: number; models?: string[] } = {},
): Promise<VeoFake> {
  const { video, real } = await testVideo();
  const knownModels = opts.models ? new Set(opts.models) : null;
  const jobs = new Map<string, Job>();
  const files = new Map<string, Job>();
  /** Signed storage paths handed out by the file endpoint → nothing (presence is the grant). */
  const signed = new Set<string>();
  const scenarios = {
    byPrompt: new Map<string, VeoScenario>(),
    byModel: new Map<string, VeoScenario>(),
  };
  let defaultScenario: VeoScenario = 'success';
  /** Failed submits so far per prompt, for the flaky scenarios. */
  const submitFailures = new Map<string, number>();

  const isFlaky = (s: VeoScenario) => s === 'flaky429' || s === 'flaky500';

  function flakyAnswer(res: ServerResponse, scenario: VeoScenario, send: Send): void {
    if (scenario === 'flaky429') {
      const details =
        fake.retryAfterSeconds === null
          ? undefined
          : [
              {
                '@type': 'type.googleapis.com/google.rpc.RetryInfo',
                retryDelay: `${fake.retryAfterSeconds}s`,
              },
            ];
      if (fake.retryAfterSeconds !== null)
        res.setHeader('retry-after', String(fake.retryAfterSeconds));
      return send(
        429,
        googleError(
          429,
          'RESOURCE_EXHAUSTED',
          'You exceeded your current quota, please check your plan and billing details.',
          details,
        ),
      );
    }
    return send(
      500,
      googleError(
        500,
        'INTERNAL',
        'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
      ),
    );
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const header = req.headers['x-goog-api-key'];
    const entry: VeoFakeRequest = {
      server: 'api',
      method: req.method ?? 'GET',
      path: `${url.pathname}${url.search}`,
      apiKey: typeof header === 'string' ? header : null,
      status: 0,
    };
    fake.requests.push(entry);
    const send: Send = (status, body) => {
      entry.status = status;
      sendJson(res, status, body);
    };
    const raw = req.method === 'POST' ? await readBody(req) : '';

    // Google checks the key before anything else: none is 403, a wrong one 400 API_KEY_INVALID.
    if (entry.apiKey === null) {
      return send(
        403,
        googleError(
          403,
          'PERMISSION_DENIED',
          "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
        ),
      );
    }
    if (entry.apiKey !== fake.apiKey) {
      return send(
        400,
        googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'API_KEY_INVALID',
            domain: 'googleapis.com',
            metadata: { service: 'generativelanguage.googleapis.com' },
          },
        ]),
      );
    }

    const submit = /^\/v1beta\/models\/([^/:]+):predictLongRunning$/.exec(url.pathname);
    if (submit) {
      if (req.method !== 'POST') return send(404, googleError(404, 'NOT_FOUND', 'Not found.'));
      const model = decodeURIComponent(submit[1] ?? '');
      let body: unknown;
      try {
        body = JSON.parse(raw);
        entry.body = body;
      } catch {
        return send(
          400,
          googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received. Unexpected token.'),
        );
      }
      if (knownModels && !knownModels.has(model)) {
        return send(
          404,
          googleError(
            404,
            'NOT_FOUND',
            `models/${model} is not found for API version v1beta, or is not supported for predictLongRunning. Call ListModels to see the list of available models and their supported methods.`,
          ),
        );
      }
      const problem = bodyProblem(body);
      if (problem) return send(400, googleError(400, 'INVALID_ARGUMENT', problem));

      const prompt = (
        (body as { instances: { prompt: string }[] }).instances[0] as { prompt: string }
      ).prompt;
      const scenario =
        scenarios.byPrompt.get(prompt) ?? scenarios.byModel.get(model) ?? defaultScenario;
      if (isFlaky(scenario)) {
        const failed = submitFailures.get(prompt) ?? 0;
        if (failed < fake.flakyFailures) {
          submitFailures.set(prompt, failed + 1);
          return flakyAnswer(res, scenario, send);
        }
      }
      const job: Job = {
        id: randomBytes(6).toString('hex'),
        model,
        scenario,
        polls: 0,
        failures: { poll: 0, download: 0 },
      };
      jobs.set(`models/${model}/operations/${job.id}`, job);
      // A fresh operation has no `done` at all: proto3 JSON leaves false out.
      return send(200, { name: `models/${model}/operations/${job.id}` });
    }

    const poll = /^\/v1beta\/(models\/[^/]+\/operations\/[^/]+)$/.exec(url.pathname);
    if (poll && req.method === 'GET') {
      const name = poll[1] ?? '';
      const job = jobs.get(name);
      if (!job) return send(404, googleError(404, 'NOT_FOUND', 'Requested entity was not found.'));
      if (isFlaky(job.scenario) && job.failures.poll < fake.flakyFailures) {
        job.failures.poll += 1;
        return flakyAnswer(res, job.scenario, send);
      }
      job.polls += 1;
      if (job.polls < fake.pollsUntilDone) return send(200, { name });
      return send(200, finishedOperation(name, job));
    }

    const file = /^\/v1beta\/files\/([^/:]+):download$/.exec(url.pathname);
    if (file && req.method === 'GET') {
      const job = files.get(file[1] ?? '');
      if (!job || url.searchParams.get('alt') !== 'media') {
        return send(404, googleError(404, 'NOT_FOUND', 'Requested entity was not found.'));
      }
      if (job.scenario === 'downloadFails') {
        return send(404, googleError(404, 'NOT_FOUND', `File ${file[1]} not found or expired.`));
      }
      if (isFlaky(job.scenario) && job.failures.download < fake.flakyFailures) {
        job.failures.download += 1;
        return flakyAnswer(res, job.scenario, send);
      }
      // Google answers with a redirect to a short-lived signed storage URL that needs no key.
      const signedPath = `/videos/${file[1]}.mp4?X-Goog-Signature=${randomBytes(16).toString('hex')}`;
      signed.add(signedPath);
      entry.status = 302;
      res.writeHead(302, { location: `${storageUrl}${signedPath}` });
      res.end();
      return;
    }

    return send(404, googleError(404, 'NOT_FOUND', 'Not found.'));
  }

  function finishedOperation(name: string, job: Job): unknown {
    const response = (generateVideoResponse: unknown) => ({
      name,
      done: true,
      response: {
        '@type':
          'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse',
        generateVideoResponse,
      },
    });
    if (job.scenario === 'rai') {
      return response({ raiMediaFilteredCount: 1, raiMediaFilteredReasons: [RAI_REASON] });
    }
    if (job.scenario === 'error') {
      return { name, done: true, error: { code: 13, message: OPERATION_ERROR_MESSAGE } };
    }
    const fileId = `${job.id}v`;
    files.set(fileId, job);
    return response({
      generatedSamples: [
        { video: { uri: `${fake.url}/v1beta/files/${fileId}:download?alt=media` } },
      ],
    });
  }

  function handleStorage(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const header = req.headers['x-goog-api-key'];
    const entry: VeoFakeRequest = {
      server: 'storage',
      method: req.method ?? 'GET',
      path: `${url.pathname}${url.search}`,
      apiKey: typeof header === 'string' ? header : null,
      status: 200,
    };
    fake.requests.push(entry);
    if (req.method !== 'GET' || !signed.has(entry.path)) {
      // What GCS says to an unsigned or tampered URL.
      entry.status = 403;
      res.writeHead(403, { 'content-type': 'application/xml; charset=UTF-8' });
      res.end(
        "<?xml version='1.0' encoding='UTF-8'?><Error><Code>AccessDenied</Code><Message>Access denied.</Message></Error>",
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(video.length) });
    res.end(video);
  }

  const api = createServer((req, res) => {
    handleApi(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, googleError(500, 'INTERNAL', String(err)));
    });
  });
  const storage = createServer(handleStorage);
  const apiUrl = await listen(api);
  const storageUrl = await listen(storage);

  const fake: VeoFake = {
    url: apiUrl,
    storageUrl,
    apiKey: opts.apiKey ?? `AIzaSy${randomBytes(16).toString('base64url')}`,
    requests: [],
    video,
    videoIsReal: real,
    pollsUntilDone: opts.pollsUntilDone ?? 2,
    flakyFailures: 1,
    retryAfterSeconds: null,
    raiReason: RAI_REASON,
    operationErrorMessage: OPERATION_ERROR_MESSAGE,

    setScenario(scenario, target) {
      if (target?.prompt !== undefined) scenarios.byPrompt.set(target.prompt, scenario);
      else if (target?.model !== undefined) scenarios.byModel.set(target.model, scenario);
      else defaultScenario = scenario;
    },

    async close() {
      await Promise.all([closeServer(api), closeServer(storage)]);
    },
  };
  return fake;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=UTF-8');
  res.end(JSON.stringify(body));
}
