/** The error a video provider throws when it fails itself (see VideoProviderError). */

/**
 * A failure of the provider itself (not of the generation: those are `{ state: 'failed' }`).
 * `retryable` tells the worker whether the same call may succeed later (rate limits, outages,
 * network) or never will (bad key, bad request, unknown model, missing file).
 */
export class VideoProviderError extends Error {
  override name = 'VideoProviderError';
  readonly retryable: boolean;
  /** The HTTP status the provider answered, when there was one. */
  readonly status: number | null;
  /** How long the provider asked us to wait (Retry-After or RetryInfo), when it said. */
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
