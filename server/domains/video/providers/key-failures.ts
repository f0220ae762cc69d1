/**
 * A failed fetch of a provider's webhook key, remembered (issue 34, finding 4): for a minute no
 * delivery causes another call, each is answered `unavailable` (the route's 503) with the rest of
 * the minute as Retry-After, so forged deliveries cannot make us hammer a key endpoint that is down.
 */
import { VideoProviderError } from './errors.ts';

const MEMORY_MS = 60_000;

export function keyFailureMemory(label: string, now: () => number) {
  let failedAt: number | null = null;
  return {
    /** The error to answer with while a failure is remembered; null when a fetch may be tried. */
    refusal(): VideoProviderError | null {
      const since = failedAt === null ? Infinity : now() - failedAt;
      if (since >= MEMORY_MS) return null;
      return new VideoProviderError(`${label}: the last fetch failed under a minute ago`, {
        kind: 'unavailable',
        retryAfterMs: MEMORY_MS - since,
      });
    },
    failed(): void {
      failedAt = now();
    },
  };
}
