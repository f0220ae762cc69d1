/** The error a video provider throws when a call fails (not when a generation fails: see types.ts). */

/**
 * What went wrong, as the worker needs to know it:
 * - `rate_limited`: 429 / RESOURCE_EXHAUSTED. The provider did not take the job; wait
 *   `retryAfterMs` (or back off), or fail over on submit.
 * - `unavailable`: no answer (connection refused, DNS) or a 5xx, after the adapter's own retries.
 *   On submit the job was not accepted: safe to fail over.
 * - `in_doubt`: a submit whose request may have reached the provider but whose answer we lost
 *   (timeout or reset after sending). Never retried and never failed over: that could generate
 *   (and bill) twice.
 * - `content_policy`: the provider's safety filter refused the prompt or image. Not failed over.
 * - `rejected`: any other refusal (bad request, unknown model, bad key, bad webhook signature).
 * - `gone`: the job or its output no longer exists at the provider (expired, deleted).
 */
export type ProviderErrorKind =
  'rate_limited' | 'unavailable' | 'in_doubt' | 'content_policy' | 'rejected' | 'gone';

export class VideoProviderError extends Error {
  override name = 'VideoProviderError';
  readonly kind: ProviderErrorKind;
  /** The HTTP status the provider answered, when there was one. */
  readonly status: number | null;
  /** How long the provider asked us to wait (Retry-After or RetryInfo), when it said. */
  readonly retryAfterMs: number | null;
  /** The provider's own text (logs and the admin view only; never shown to users). */
  readonly detail: string;

  constructor(
    message: string,
    opts: {
      kind: ProviderErrorKind;
      status?: number | null;
      retryAfterMs?: number | null;
      detail?: string;
      cause?: unknown;
    },
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.kind = opts.kind;
    this.status = opts.status ?? null;
    this.retryAfterMs = opts.retryAfterMs ?? null;
    this.detail = opts.detail ?? message;
  }

  /** The same call may succeed later (the worker reschedules rather than fails). */
  get retryable(): boolean {
    return this.kind === 'rate_limited' || this.kind === 'unavailable';
  }
}

export const isProviderError = (err: unknown): err is VideoProviderError =>
  err instanceof VideoProviderError;
