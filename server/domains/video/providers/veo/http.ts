/**
 * HTTP for the Veo adapter: calls to the Gemini API with the key, retries of 429, 5xx and
 * network failures (exponential backoff with jitter, Google's own Retry-After or RetryInfo when
 * it gives one), a time limit per attempt, and the video download that follows redirects by hand
 * so the key never leaves the API's origin. Answers come back as parsed JSON for ./wire.ts.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { VideoProviderError } from '../errors.ts';
import { parseErrorBody, type GoogleError } from './wire.ts';

export interface VeoHttpSettings {
  /** The API base without a trailing slash, and its origin (the only one the key goes to). */
  base: string;
  apiOrigin: string;
  apiKey: string;
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  timeoutMs: number;
}

const MAX_REDIRECTS = 5;

/** An error as one line; undici's "fetch failed" hides the useful part (ECONNREFUSED, ...). */
export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  return err.cause instanceof Error ? `${err.message}: ${err.cause.message}` : err.message;
}

function retryAfterMsOf(res: Response, body: GoogleError | undefined): number | null {
  const header = res.headers.get('retry-after');
  if (header) {
    const seconds = Number(header);
    if (header.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const at = Date.parse(header);
    if (!Number.isNaN(at)) return Math.max(0, at - Date.now());
  }
  // Google's APIs usually say it in the body instead: a google.rpc.RetryInfo detail ("30s").
  return body?.retryDelayMs ?? null;
}

/** Turns a non-2xx answer into an error that carries Google's own message. */
async function errorFromResponse(what: string, res: Response): Promise<VideoProviderError> {
  const text = await res.text().catch(() => '');
  const body = parseErrorBody(text);
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

export function createVeoHttp(settings: VeoHttpSettings, fetchImpl: typeof fetch) {
  const { base, apiOrigin, apiKey, attempts, baseDelayMs, maxDelayMs, timeoutMs } = settings;

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
        `${what} failed: no answer from ${url.host} (${describeError(err)})`,
        {
          retryable: true,
          cause: err,
        },
      );
    }
  }

  /** One API call (retried), answering the parsed JSON body. */
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
            'x-goog-api-key': apiKey,
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
        throw new VideoProviderError(
          `${what} failed: the answer was not JSON (${describeError(err)})`,
          { retryable: true, cause: err },
        );
      }
    });
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
        url.origin === apiOrigin ? { 'x-goog-api-key': apiKey } : {};
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

  return { withRetry, callApi, openVideo };
}
