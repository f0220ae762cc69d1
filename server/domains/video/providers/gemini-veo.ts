/**
 * Veo on the Gemini API (generativelanguage.googleapis.com), spoken over plain fetch.
 *
 * Wire format, as the Gemini API docs and Google's own SDK (js-genai, "mldev" converters) send it:
 * - `POST /v1beta/models/{model}:predictLongRunning` with `x-goog-api-key` and
 *   `{ instances: [{ prompt, image?: { bytesBase64Encoded, mimeType } }], parameters: {...} }`
 *   answers a long-running operation `{ name: 'models/{model}/operations/{id}' }`.
 * - `GET /v1beta/{name}` until `done: true`; then either `error: { code, message }` or the video.
 * The JSON both ways is built and parsed in ./veo/wire.ts only; retries, time limits and the
 * redirect-following download are in ./veo/http.ts. This module holds the three calls.
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
import { VideoProviderError } from './errors.ts';
import type { VideoJobInput, VideoJobState, VideoProvider } from './types.ts';
import { createVeoHttp, describeError } from './veo/http.ts';
import { isOperationName, parseOperation, predictRequest, type VeoOperation } from './veo/wire.ts';

export { VideoProviderError } from './errors.ts';

export const DEFAULT_VEO_API_BASE = 'https://generativelanguage.googleapis.com';

export interface VeoSettings {
  /** Default https://generativelanguage.googleapis.com (tests point it at tests/fakes/veo/). */
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

/** Errors from our own disk (ENOSPC, EACCES, ...) carry `syscall`; retrying the download won't help. */
const isLocalSystemError = (err: unknown): boolean =>
  err instanceof Error && typeof (err as NodeJS.ErrnoException).syscall === 'string';

/** The checks a job must pass before anything is sent; returns Google's model id. */
function checkJob(settings: VeoSettings, input: VideoJobInput): string {
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
  return modelId;
}

export function createGeminiVeoProvider(
  settings: VeoSettings,
  fetchImpl: typeof fetch = fetch,
): VideoProvider {
  const base = (settings.apiBase || DEFAULT_VEO_API_BASE).replace(/\/+$/, '');
  const apiOrigin = new URL(base).origin;
  if (!settings.apiKey) throw new Error('Veo: an API key is required.');
  const http = createVeoHttp(
    {
      base,
      apiOrigin,
      apiKey: settings.apiKey,
      attempts: Math.max(1, Math.floor(settings.retry?.attempts ?? 5)),
      baseDelayMs: Math.max(0, settings.retry?.baseDelayMs ?? 1000),
      maxDelayMs: Math.max(0, settings.retry?.maxDelayMs ?? 30_000),
      timeoutMs: settings.timeoutMs ?? 120_000,
    },
    fetchImpl,
  );

  async function getOperation(
    what: string,
    jobId: string,
    signal: AbortSignal | undefined,
  ): Promise<VeoOperation> {
    if (!isOperationName(jobId)) {
      throw new VideoProviderError(`${what}: "${jobId}" is not a Veo operation name.`, {
        retryable: false,
      });
    }
    const op = parseOperation(await http.callApi(what, jobId, { method: 'GET' }, signal));
    if (!op) {
      throw new VideoProviderError(`${what} failed: the answer was not an operation.`, {
        retryable: true,
      });
    }
    return op;
  }

  return {
    name: 'gemini-veo',

    async submit(input, signal) {
      const modelId = checkJob(settings, input);
      // A 5xx retry can in theory start a second generation if the first POST did reach Veo
      // (there is no idempotency key); we accept that over failing the user's task.
      const answer = await http.callApi(
        'Veo submit',
        `models/${encodeURIComponent(modelId)}:predictLongRunning`,
        { method: 'POST', body: predictRequest(input, settings.personGeneration?.[input.mode]) },
        signal,
      );
      const name = parseOperation(answer)?.name;
      if (!name) {
        throw new VideoProviderError('Veo submit: the answer carried no operation name.', {
          retryable: false,
        });
      }
      return name;
    },

    async poll(jobId, signal): Promise<VideoJobState> {
      const { outcome } = await getOperation('Veo poll', jobId, signal);
      return outcome.state === 'succeeded' ? { state: 'succeeded' } : outcome;
    },

    async download(jobId, destPath, signal) {
      // Re-read the operation rather than trust anything remembered: this may be a new process.
      const { outcome } = await getOperation('Veo download', jobId, signal);
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
      await http.withRetry(signal, async (attemptSignal) => {
        const res = await http.openVideo(outcome.uri, attemptSignal);
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
          throw new VideoProviderError(`Veo video download was cut short: ${describeError(err)}`, {
            retryable: true,
            cause: err,
          });
        }
      });
    },
  };
}
