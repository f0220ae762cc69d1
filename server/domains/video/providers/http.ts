/**
 * HTTP the provider adapters share: JSON calls with a time limit per attempt, retries of 429, 5xx
 * and network failures (exponential backoff with jitter, or the provider's own Retry-After), and
 * the result download that follows redirects by hand so credentials never leave the API's origin.
 * Every request goes through the guarded fetcher (core/outbound.ts: public addresses only, each
 * redirect hop checked again) and every body is read with a cap: JSON answers 2 MB (those that
 * may carry the video inline, the video's cap), downloads VIDEO_RESULT_MAX_BYTES.
 *
 * Submits are not idempotent at any of our providers (no idempotency keys), so a POST is retried
 * only when the provider surely did not act on it: it refused the connection, or answered 429 or
 * 5xx. A POST whose answer was lost after sending (timeout, reset) throws `in_doubt` at once.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  guardedFetch,
  MAX_JSON_BYTES,
  OutboundRefusedError,
  OutboundTooLargeError,
  pipeCapped,
  readCapped,
  type OutboundPolicy,
} from '../../../core/outbound.ts';
import { VideoProviderError, type ProviderErrorKind } from './errors.ts';

export interface RetryPolicy {
  /** Attempts per call, the first included (default 3). */
  attempts?: number;
  /** Backoff base and cap (defaults 500 ms and 10 s). A Retry-After above the cap is not waited. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Time limit of one attempt, body included (default 60 s; downloads 10 min). */
  timeoutMs?: number;
}

/** What an adapter makes of a non-2xx answer's body (its provider's error format). */
export interface ParsedError {
  /** The provider's own message (logs and admin only). */
  message: string;
  /** Overrides the status-based kind (e.g. a 422 content-policy refusal, a 400 RESOURCE_EXHAUSTED). */
  kind?: ProviderErrorKind;
  /** A wait the body asked for (google.rpc.RetryInfo, "resets in ~30s"). */
  retryAfterMs?: number | null;
}

export interface ProviderHttpSettings {
  /** For messages: `fal`, `Replicate`, `Vertex AI`, `Gemini API`. */
  label: string;
  /** Headers for a URL (auth), or {} for URLs outside the provider's own origins. */
  headersFor(url: URL): Promise<Record<string, string>> | Record<string, string>;
  parseError(status: number, text: string, headers: Headers): ParsedError;
  retry?: RetryPolicy;
  /** What the guarded fetcher may reach besides public addresses (tests' fakes). */
  outbound?: OutboundPolicy;
  /** VIDEO_RESULT_MAX_BYTES: the largest result download (default 200 MB). */
  maxResultBytes?: number;
  /** Replaces the guarded fetcher (a test that records calls wraps `guardedFetch`). */
  fetchImpl?: typeof fetch;
}

/** VIDEO_RESULT_MAX_BYTES when unset. */
export const DEFAULT_RESULT_MAX_BYTES = 200 * 1024 * 1024;

/** A JSON answer that may hold the video as base64: 4/3 of the video's cap, and room for the rest. */
export const inlineVideoJsonBytes = (maxResultBytes: number) =>
  Math.ceil((maxResultBytes * 4) / 3) + MAX_JSON_BYTES;

const MAX_REDIRECTS = 3;
/** Connection failures that prove the request never reached the provider. */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** An error as one line; undici's "fetch failed" hides the useful part (ECONNREFUSED, ...). */
export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  return err.cause instanceof Error ? `${err.message}: ${err.cause.message}` : err.message;
}

function errorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Retry-After as seconds or an HTTP date; null when absent or unreadable. */
function retryAfterMsOf(headers: Headers): number | null {
  const header = headers.get('retry-after');
  if (!header || header.trim() === '') return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** A google.rpc.Duration ("30s", "1.5s") as milliseconds. */
export function durationMs(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d+(?:\.\d+)?)s$/.exec(value.trim());
  return match ? Math.round(Number(match[1]) * 1000) : null;
}

export function createProviderHttp(settings: ProviderHttpSettings) {
  const fetchImpl = settings.fetchImpl ?? guardedFetch(settings.outbound);
  const maxResultBytes = settings.maxResultBytes ?? DEFAULT_RESULT_MAX_BYTES;
  const attempts = Math.max(1, Math.floor(settings.retry?.attempts ?? 3));
  const baseDelayMs = Math.max(0, settings.retry?.baseDelayMs ?? 500);
  const maxDelayMs = Math.max(0, settings.retry?.maxDelayMs ?? 10_000);
  const timeoutMs = settings.retry?.timeoutMs ?? 60_000;
  const { label } = settings;

  function backoff(attempt: number): number {
    const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
    return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
  }

  async function errorFromResponse(what: string, res: Response): Promise<VideoProviderError> {
    const text = await res.text().catch(() => '');
    const parsed = settings.parseError(res.status, text, res.headers);
    const kind: ProviderErrorKind =
      parsed.kind ??
      (res.status === 429
        ? 'rate_limited'
        : res.status >= 500
          ? 'unavailable'
          : res.status === 404 || res.status === 410
            ? 'gone'
            : 'rejected');
    const retryAfterMs =
      kind === 'rate_limited' || kind === 'unavailable'
        ? (retryAfterMsOf(res.headers) ?? parsed.retryAfterMs ?? null)
        : null;
    const detail = parsed.message || text.trim().slice(0, 500) || res.statusText;
    return new VideoProviderError(`${label} ${what} failed (HTTP ${res.status}): ${detail}`, {
      kind,
      status: res.status,
      retryAfterMs,
      detail,
    });
  }

  /**
   * Runs `once` until it succeeds, fails for good, or runs out of attempts. A caller's abort is
   * rethrown as is (never retried, never wrapped).
   */
  async function withRetry<T>(
    signal: AbortSignal | undefined,
    once: (attemptSignal: AbortSignal) => Promise<T>,
    limitMs = timeoutMs,
    maxAttempts = attempts,
  ): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      signal?.throwIfAborted();
      const timeout = AbortSignal.timeout(limitMs);
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
      // Out of attempts, or the provider wants a longer pause than we hold a worker for: hand
      // the error to the worker, which reschedules the task (or fails over) instead of blocking.
      if (attempt >= maxAttempts || wait > maxDelayMs) throw error;
      try {
        await sleep(wait, undefined, { signal });
      } catch (err) {
        signal?.throwIfAborted();
        throw err;
      }
    }
  }

  /** One fetch; classifies a failure to get any answer. */
  async function fetchOnce(
    what: string,
    url: URL,
    init: RequestInit,
    signal: AbortSignal,
    idempotent: boolean,
  ): Promise<Response> {
    try {
      return await fetchImpl(url, { ...init, signal });
    } catch (err) {
      if (err instanceof OutboundRefusedError || errorCode(err) === 'EOUTBOUND_REFUSED') {
        throw new VideoProviderError(
          `${label} ${what}: refused ${url.host} (${describeError(err)})`,
          {
            kind: 'rejected',
            cause: err,
          },
        );
      }
      const code = errorCode(err);
      const notSent = code !== undefined && NOT_SENT.has(code);
      return Promise.reject(
        new VideoProviderError(
          `${label} ${what} failed: no answer from ${url.host} (${describeError(err)})`,
          { kind: notSent || idempotent ? 'unavailable' : 'in_doubt', cause: err },
        ),
      );
    }
  }

  /**
   * One JSON call, retried as the header comment says. `idempotent` (GET, cancel, a status POST
   * like Vertex's fetchPredictOperation) may also be retried after a lost answer.
   */
  async function json(
    what: string,
    url: URL | string,
    init: {
      method: 'GET' | 'POST' | 'PUT';
      body?: unknown;
      headers?: Record<string, string>;
      idempotent?: boolean;
      /** The answer's cap (default 2 MB; `inlineVideoJsonBytes` where the video may be inline). */
      maxBytes?: number;
      /** One attempt, no retries (a fetch made while a webhook waits for its answer). */
      once?: boolean;
    },
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    const target = new URL(url);
    const idempotent = init.idempotent ?? init.method === 'GET';
    return withRetry(
      signal,
      async (attemptSignal) => {
        const res = await fetchOnce(
          what,
          target,
          {
            method: init.method,
            headers: {
              accept: 'application/json',
              ...(await settings.headersFor(target)),
              ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
              ...init.headers,
            },
            body: init.body === undefined ? undefined : JSON.stringify(init.body),
          },
          attemptSignal,
          idempotent,
        );
        if (!res.ok) throw await errorFromResponse(what, res);
        const limit = init.maxBytes ?? MAX_JSON_BYTES;
        const text = await readCapped(res, limit).then(String, (err: unknown) => {
          if (err instanceof OutboundTooLargeError) {
            throw new VideoProviderError(`${label} ${what}: the answer is over ${limit} bytes`, {
              kind: 'rejected',
              cause: err,
            });
          }
          throw new VideoProviderError(`${label} ${what}: the answer was cut short`, {
            kind: idempotent ? 'unavailable' : 'in_doubt',
            cause: err,
          });
        });
        if (text.trim() === '') return null;
        try {
          return JSON.parse(text) as unknown;
        } catch (err) {
          throw new VideoProviderError(`${label} ${what}: the answer was not JSON`, {
            kind: idempotent ? 'unavailable' : 'in_doubt',
            detail: text.slice(0, 500),
            cause: err,
          });
        }
      },
      timeoutMs,
      init.once ? 1 : attempts,
    );
  }

  /**
   * Streams a file to `destPath` (beside it, then renamed), following redirects by hand: fetch
   * would forward our auth header to the storage host a provider redirects to.
   */
  async function download(
    what: string,
    url: string,
    destPath: string,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    await mkdir(dirname(destPath), { recursive: true });
    await withRetry(
      signal,
      async (attemptSignal) => {
        let target: URL;
        try {
          target = new URL(url);
        } catch {
          throw new VideoProviderError(`${label} ${what}: unusable address`, { kind: 'gone' });
        }
        for (let hop = 0; ; hop += 1) {
          if (hop > MAX_REDIRECTS) {
            throw new VideoProviderError(`${label} ${what}: too many redirects`, {
              kind: 'gone',
            });
          }
          if (target.protocol !== 'https:' && target.protocol !== 'http:') {
            throw new VideoProviderError(`${label} ${what}: unsupported ${target.protocol}`, {
              kind: 'gone',
            });
          }
          const res = await fetchOnce(
            what,
            target,
            { method: 'GET', headers: await settings.headersFor(target), redirect: 'manual' },
            attemptSignal,
            true,
          );
          if (res.status >= 300 && res.status < 400) {
            const location = res.headers.get('location');
            await res.body?.cancel();
            if (!location) {
              throw new VideoProviderError(`${label} ${what}: redirect without a Location`, {
                kind: 'gone',
                status: res.status,
              });
            }
            target = new URL(location, target);
            continue;
          }
          if (!res.ok) throw await errorFromResponse(what, res);
          await writeBody(what, res, destPath);
          return;
        }
      },
      Math.max(timeoutMs, 10 * 60_000),
    );
  }

  async function writeBody(what: string, res: Response, destPath: string): Promise<void> {
    const part = `${destPath}.${randomBytes(6).toString('hex')}.part`;
    try {
      if (!res.body) throw new Error('empty body');
      await pipeCapped(res, createWriteStream(part, { flags: 'wx' }), maxResultBytes);
      if ((await stat(part)).size === 0) throw new Error('empty body');
      await rename(part, destPath);
    } catch (err) {
      await rm(part, { force: true });
      // Our own disk (ENOSPC, EACCES) carries `syscall`: retrying the download won't help.
      if (err instanceof Error && typeof (err as NodeJS.ErrnoException).syscall === 'string') {
        throw err;
      }
      if (err instanceof OutboundTooLargeError) {
        throw new VideoProviderError(
          `${label} ${what}: the video is over VIDEO_RESULT_MAX_BYTES (${maxResultBytes} bytes)`,
          { kind: 'rejected', cause: err },
        );
      }
      throw new VideoProviderError(`${label} ${what} was cut short: ${describeError(err)}`, {
        kind: 'unavailable',
        cause: err,
      });
    }
  }

  return { json, download, withRetry, maxResultBytes };
}

export type ProviderHttp = ReturnType<typeof createProviderHttp>;
