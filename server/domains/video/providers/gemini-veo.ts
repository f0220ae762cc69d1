/**
 * Veo on the Gemini API (generativelanguage.googleapis.com), spoken over plain fetch.
 *
 * Wire format, as the Gemini API docs and Google's own SDK (js-genai, "mldev" converters) send it:
 * - `POST /v1beta/models/{model}:predictLongRunning` with `x-goog-api-key` and
 *   `{ instances: [{ prompt, image?: { bytesBase64Encoded, mimeType } }], parameters: {...} }`
 *   answers a long-running operation `{ name: 'models/{model}/operations/{id}' }`.
 * - `GET /v1beta/{name}` until `done: true`; then either `error: { code, message }` or
 *   `response.generateVideoResponse` with `generatedSamples[].video.uri` (a files `:download`
 *   address that needs the key and redirects to storage) or, when the safety filter dropped the
 *   video, `raiMediaFilteredCount` / `raiMediaFilteredReasons` and no samples.
 *
 * Parameters we send, and why:
 * - `durationSeconds: 8` as a JSON number: the SDK types it as a number and the live API has been
 *   reported to reject the string form ("8") that some doc samples show.
 * - `aspectRatio: '16:9'` and `sampleCount: 1` (the SDK's `numberOfVideos`).
 * - No `generateAudio`: Veo 3 always makes audio on the Gemini API and the SDK refuses that
 *   parameter outside Vertex AI.
 * - `personGeneration` only when configured: the allowed values differ by model and mode (docs:
 *   Veo 3.1 text-to-video takes only 'allow_all', image-to-video only 'allow_adult'), so by default
 *   we leave the API's own default in force rather than hard-code a value Google may change.
 *
 * Nothing is kept in memory between calls: a worker that crashed after `submit` can `poll` and
 * `download` with a fresh provider, because the operation name is the whole job state.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { setTimeout as sleep } from 'node:timers/promises';
import type { VideoJobInput, VideoJobState, VideoProvider } from './types.ts';

export const DEFAULT_VEO_API_BASE = 'https://generativelanguage.googleapis.com';

export interface VeoSettings {
  /** Default https://generativelanguage.googleapis.com (tests point it at tests/fakes/veo.ts). */
  apiBase: string;
  apiKey: string;
  /** Our model id → Google's model id. Config, never code: Google retires model ids. */
  models: Record<string, string>;
  /** Retries of 429, 5xx and network failures, per call. Defaults: 5 attempts, 1 s base, 30 s cap. */
  retry?: { attempts?: number; baseDelayMs?: number; maxDelayMs?: number };
  /** Time limit of one HTTP attempt, body included (default 120 s). */
  timeoutMs?: number;
  /** `parameters.personGeneration` per mode; unset sends nothing (see the header comment). */
  personGeneration?: Partial<Record<VideoJobInput['mode'], string>>;
}

/**
 * A failure of the provider itself (not of the generation: those are `{ state: 'failed' }`).
 * `retryable` tells the worker whether the same call may succeed later (rate limits, outages,
 * network) or never will (bad key, bad request, unknown model, missing file).
 */
export class VideoProviderError extends Error {
  override name = 'VideoProviderError';
  readonly retryable: boolean;
  /** The HTTP status Google answered, when there was one. */
  readonly status: number | null;
  /** How long Google asked us to wait (Retry-After or RetryInfo), when it said. */
  readonly retryAfterMs: number | null;

  constructor(
    message: string,
    opts: {
      retryable: boolean;
      status?: number | null;
      retryAfterMs?: number | null;
      cause?: unknown;
    },
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.retryable = opts.retryable;
    this.status = opts.status ?? null;
    this.retryAfterMs = opts.retryAfterMs ?? null;
  }
}

/** What every job asks for: one 8-second landscape video (the product sells exactly that). */
const VIDEO_PARAMETERS = { aspectRatio: '16:9', durationSeconds: 8, sampleCount: 1 } as const;

/** Operation names are used as a URL path, so only this shape is let through. */
const OPERATION_NAME = /^(?:models\/[\w.-]+\/)?operations\/[\w.-]+$/;

const MAX_REDIRECTS = 5;

interface GoogleErrorDetail {
  '@type'?: string;
  retryDelay?: string;
}

interface GoogleStatus {
  code?: number;
  message?: string;
  status?: string;
  details?: GoogleErrorDetail[];
}

interface VeoOperation {
  name?: unknown;
  done?: unknown;
  error?: GoogleStatus;
  response?: {
    generateVideoResponse?: {
      generatedSamples?: { video?: { uri?: unknown } }[];
      raiMediaFilteredCount?: unknown;
      raiMediaFilteredReasons?: unknown;
    };
  };
}

type Outcome =
  { state: 'running' } | { state: 'succeeded'; uri: string } | { state: 'failed'; reason: string };

function outcomeOf(op: VeoOperation): Outcome {
  if (op.error) {
    const { code, message } = op.error;
    return { state: 'failed', reason: message || `Veo reported error code ${code ?? 'unknown'}.` };
  }
  if (op.done !== true) return { state: 'running' };

  const result = op.response?.generateVideoResponse;
  const uri = result?.generatedSamples?.[0]?.video?.uri;
  if (typeof uri === 'string' && uri !== '') return { state: 'succeeded', uri };

  const filtered =
    typeof result?.raiMediaFilteredCount === 'number' ? result.raiMediaFilteredCount : 0;
  const reasons = Array.isArray(result?.raiMediaFilteredReasons)
    ? result.raiMediaFilteredReasons.filter((r): r is string => typeof r === 'string')
    : [];
  if (filtered > 0 || reasons.length > 0) {
    return {
      state: 'failed',
      reason: `Blocked by Veo's safety filter: ${reasons[0] ?? 'no reason given'}`,
    };
  }
  return { state: 'failed', reason: 'Veo finished without producing a video.' };
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  // undici reports "fetch failed" and hides the useful part (ECONNREFUSED, ...) in `cause`.
  return err.cause instanceof Error ? `${err.message}: ${err.cause.message}` : err.message;
}

/** Errors from our own disk (ENOSPC, EACCES, ...) carry `syscall`; retrying the download won't help. */
const isLocalSystemError = (err: unknown): boolean =>
  err instanceof Error && typeof (err as NodeJS.ErrnoException).syscall === 'string';

function retryAfterMsOf(res: Response, body: GoogleStatus | undefined): number | null {
  const header = res.headers.get('retry-after');
  if (header) {
    const seconds = Number(header);
    if (header.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const at = Date.parse(header);
    if (!Number.isNaN(at)) return Math.max(0, at - Date.now());
  }
  // Google's APIs usually say it in the body instead: a google.rpc.RetryInfo detail ("30s").
  for (const detail of body?.details ?? []) {
    if (!detail['@type']?.endsWith('google.rpc.RetryInfo')) continue;
    const match = /^(\d+(?:\.\d+)?)s$/.exec(detail.retryDelay ?? '');
    if (match) return Number(match[1]) * 1000;
  }
  return null;
}

/** Turns a non-2xx answer into an error that carries Google's own message. */
async function errorFromResponse(what: string, res: Response): Promise<VideoProviderError> {
  const text = await res.text().catch(() => '');
  let body: GoogleStatus | undefined;
  try {
    body = (JSON.parse(text) as { error?: GoogleStatus }).error;
  } catch {
    // Storage answers XML or nothing; the status line is all we have then.
  }
  const message = body?.message || text.trim().slice(0, 300) || res.statusText || 'no details';
  const retryable = res.status === 429 || res.status >= 500;
  return new VideoProviderError(
    `${what} failed (HTTP ${res.status}${body?.status ? ` ${body.status}` : ''}): ${message}`,
    {
      retryable,
      status: res.status,
      retryAfterMs: retryable ? retryAfterMsOf(res, body) : null,
    },
  );
}

export function createGeminiVeoProvider(
  settings: VeoSettings,
  fetchImpl: typeof fetch = fetch,
): VideoProvider {
  const base = (settings.apiBase || DEFAULT_VEO_API_BASE).replace(/\/+$/, '');
  const apiOrigin = new URL(base).origin;
  if (!settings.apiKey) throw new Error('Veo: an API key is required.');
  const attempts = Math.max(1, Math.floor(settings.retry?.attempts ?? 5));
  const baseDelayMs = Math.max(0, settings.retry?.baseDelayMs ?? 1000);
  const maxDelayMs = Math.max(0, settings.retry?.maxDelayMs ?? 30_000);
  const timeoutMs = settings.timeoutMs ?? 120_000;

  /** Exponential backoff with jitter, so many workers hitting one 429 don't retry in lockstep. */
  function backoff(attempt: number): number {
    const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
    return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
  }

  /**
   * Runs `once` until it succeeds, fails for good, or runs out of attempts. A caller's abort is
   * rethrown as is (never retried, never wrapped); our own per-attempt timeout is retryable.
   */
  async function withRetry<T>(
    signal: AbortSignal | undefined,
    once: (attemptSignal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      signal?.throwIfAborted();
      const timeout = AbortSignal.timeout(timeoutMs);
      const attemptSignal = signal ? AbortSignal.any([signal, timeout]) : timeout;
      let error: VideoProviderError;
      try {
        return await once(attemptSignal);
      } catch (err) {
        signal?.throwIfAborted();
        if (!(err instanceof VideoProviderError)) throw err;
        error = err;
      }
      if (!error.retryable) throw error;
      const wait = error.retryAfterMs ?? backoff(attempt);
      // Out of attempts, or Google wants a longer pause than we hold a worker for: hand the
      // (retryable) error to the worker, which can reschedule the task instead of blocking.
      if (attempt >= attempts || wait > maxDelayMs) {
        if (attempt === 1) throw error;
        throw new VideoProviderError(`${error.message} (gave up after ${attempt} attempts)`, {
          retryable: true,
          status: error.status,
          retryAfterMs: error.retryAfterMs,
          cause: error,
        });
      }
      try {
        await sleep(wait, undefined, { signal });
      } catch (err) {
        signal?.throwIfAborted();
        throw err;
      }
    }
  }

  /** One fetch; a failure to get any answer (refused, reset, timed out) is retryable. */
  async function fetchOnce(
    what: string,
    url: URL,
    init: RequestInit,
    signal: AbortSignal,
  ): Promise<Response> {
    try {
      return await fetchImpl(url, { ...init, signal });
    } catch (err) {
      throw new VideoProviderError(
        `${what} failed: no answer from ${url.host} (${describe(err)})`,
        {
          retryable: true,
          cause: err,
        },
      );
    }
  }

  async function callApi(
    what: string,
    path: string,
    init: { method: 'GET' | 'POST'; body?: string },
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    const url = new URL(`${base}/v1beta/${path}`);
    return withRetry(signal, async (attemptSignal) => {
      const res = await fetchOnce(
        what,
        url,
        {
          method: init.method,
          headers: {
            'x-goog-api-key': settings.apiKey,
            ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: init.body,
        },
        attemptSignal,
      );
      if (!res.ok) throw await errorFromResponse(what, res);
      try {
        return (await res.json()) as unknown;
      } catch (err) {
        throw new VideoProviderError(`${what} failed: the answer was not JSON (${describe(err)})`, {
          retryable: true,
          cause: err,
        });
      }
    });
  }

  async function getOperation(
    what: string,
    jobId: string,
    signal: AbortSignal | undefined,
  ): Promise<VeoOperation> {
    if (!OPERATION_NAME.test(jobId)) {
      throw new VideoProviderError(`${what}: "${jobId}" is not a Veo operation name.`, {
        retryable: false,
      });
    }
    const op = await callApi(what, jobId, { method: 'GET' }, signal);
    if (typeof op !== 'object' || op === null) {
      throw new VideoProviderError(`${what} failed: the answer was not an operation.`, {
        retryable: true,
      });
    }
    return op as VeoOperation;
  }

  /**
   * GETs the video, following redirects by hand: fetch would forward `x-goog-api-key` to the
   * storage host Google redirects to, and the key must only ever go to the API's own origin.
   */
  async function openVideo(uri: string, signal: AbortSignal): Promise<Response> {
    const what = 'Veo video download';
    let url: URL;
    try {
      url = new URL(uri, base);
    } catch {
      throw new VideoProviderError(`${what}: Veo gave an unusable video address.`, {
        retryable: false,
      });
    }
    for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
      if (url.protocol !== 'https:' && url.protocol !== 'http:') {
        throw new VideoProviderError(`${what}: unsupported address scheme ${url.protocol}`, {
          retryable: false,
        });
      }
      const headers: Record<string, string> =
        url.origin === apiOrigin ? { 'x-goog-api-key': settings.apiKey } : {};
      const res = await fetchOnce(
        what,
        url,
        { method: 'GET', headers, redirect: 'manual' },
        signal,
      );
      if (res.status >= 300 && res.status < 400) {
        const location = res.headers.get('location');
        await res.body?.cancel();
        if (!location) {
          throw new VideoProviderError(`${what} failed: HTTP ${res.status} without a Location.`, {
            retryable: false,
            status: res.status,
          });
        }
        url = new URL(location, url);
        continue;
      }
      if (res.ok) return res;
      const error = await errorFromResponse(what, res);
      if (error.retryable) throw error;
      // 403/404 here mostly mean the file is gone: Google deletes generated videos after 2 days.
      throw new VideoProviderError(
        `${error.message} — the generated video could not be fetched (it may have expired or the key lacks access).`,
        { retryable: false, status: error.status, cause: error },
      );
    }
    throw new VideoProviderError(`${what} failed: more than ${MAX_REDIRECTS} redirects.`, {
      retryable: false,
    });
  }

  return {
    name: 'gemini-veo',

    async submit(input, signal) {
      const modelId = Object.hasOwn(settings.models, input.model)
        ? settings.models[input.model]
        : undefined;
      if (!modelId) {
        throw new VideoProviderError(`No Veo model is configured for "${input.model}".`, {
          retryable: false,
        });
      }
      if (input.prompt.trim() === '') {
        throw new VideoProviderError('Veo submit: the prompt is empty.', { retryable: false });
      }
      if ((input.mode === 'image') !== (input.image !== undefined)) {
        throw new VideoProviderError(
          input.mode === 'image'
            ? 'Veo submit: image mode needs an image.'
            : 'Veo submit: text mode takes no image.',
          { retryable: false },
        );
      }

      const instance: Record<string, unknown> = { prompt: input.prompt };
      if (input.image) {
        instance.image = {
          bytesBase64Encoded: input.image.data.toString('base64'),
          mimeType: input.image.mimeType,
        };
      }
      const parameters: Record<string, unknown> = { ...VIDEO_PARAMETERS };
      const personGeneration = settings.personGeneration?.[input.mode];
      if (personGeneration) parameters.personGeneration = personGeneration;

      // A 5xx retry can in theory start a second generation if the first POST did reach Veo
      // (there is no idempotency key); we accept that over failing the user's task.
      const op = (await callApi(
        'Veo submit',
        `models/${encodeURIComponent(modelId)}:predictLongRunning`,
        { method: 'POST', body: JSON.stringify({ instances: [instance], parameters }) },
        signal,
      )) as VeoOperation | null;
      const name = op?.name;
      if (typeof name !== 'string' || !OPERATION_NAME.test(name)) {
        throw new VideoProviderError('Veo submit: the answer carried no operation name.', {
          retryable: false,
        });
      }
      return name;
    },

    async poll(jobId, signal): Promise<VideoJobState> {
      const outcome = outcomeOf(await getOperation('Veo poll', jobId, signal));
      return outcome.state === 'succeeded' ? { state: 'succeeded' } : outcome;
    },

    async download(jobId, destPath, signal) {
      // Re-read the operation rather than trust anything remembered: this may be a new process.
      const outcome = outcomeOf(await getOperation('Veo download', jobId, signal));
      if (outcome.state === 'running') {
        throw new VideoProviderError(`Veo download: ${jobId} has not finished yet.`, {
          retryable: true,
        });
      }
      if (outcome.state === 'failed') {
        throw new VideoProviderError(`Veo download: ${jobId} has no video: ${outcome.reason}`, {
          retryable: false,
        });
      }

      await mkdir(dirname(destPath), { recursive: true });
      await withRetry(signal, async (attemptSignal) => {
        const res = await openVideo(outcome.uri, attemptSignal);
        // Write beside the target and rename, so `destPath` never holds half a video.
        const part = `${destPath}.${randomBytes(6).toString('hex')}.part`;
        try {
          if (!res.body) throw new Error('empty body');
          await pipeline(
            Readable.fromWeb(res.body as unknown as NodeReadableStream<Uint8Array>),
            createWriteStream(part, { flags: 'wx' }),
          );
          if ((await stat(part)).size === 0) throw new Error('empty body');
          await rename(part, destPath);
        } catch (err) {
          await rm(part, { force: true });
          if (isLocalSystemError(err)) throw err;
          throw new VideoProviderError(`Veo video download was cut short: ${describe(err)}`, {
            retryable: true,
            cause: err,
          });
        }
      });
    },
  };
}
