/**
 * A key's limits (issue 36, item 5): config.apiLimits (API_DEFAULT_LIMITS by default), raised by
 * the owner's plan (content/plans.json `api`), and the per-key request budget of /v1, counted in
 * the app's shared rate-limit store (the database, or Redis with REDIS_URL: core/rate-limit.ts)
 * so it holds across instances (keyRateLimiter). Every answer of an authenticated /v1 request names its budget in
 * the IETF draft's headers (RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset in seconds); a
 * refusal adds Retry-After.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import catalogue from '../../../content/plans.json' with { type: 'json' };
import { AppError } from '../../core/errors.ts';
import { msg } from '../../core/api-messages.ts';
import type { KeyLimits } from '../../core/access.ts';

export type { KeyLimits };

type PlanApi = { id: string; api?: Partial<KeyLimits> };

/**
 * The limits of a key whose owner's active plan is `planId` (null: none), and its metrics class:
 * `defaults` (config.apiLimits: API_DEFAULT_LIMITS unless the operator set others), each raised
 * by the plan's own `api` limits, never lowered.
 */
export function planLimits(
  planId: string | null,
  defaults: KeyLimits,
): { limits: KeyLimits; keyClass: string } {
  const plan =
    planId === null
      ? undefined
      : (catalogue.plans as readonly PlanApi[]).find((p) => p.id === planId);
  // A plan id no longer in the catalogue (retired) keeps the defaults and counts as 'default'.
  if (!plan) return { limits: { ...defaults }, keyClass: 'default' };
  return {
    limits: {
      requestsPerMinute: Math.max(defaults.requestsPerMinute, plan.api?.requestsPerMinute ?? 0),
      unfinishedVideos: Math.max(defaults.unfinishedVideos, plan.api?.unfinishedVideos ?? 0),
    },
    keyClass: plan.id,
  };
}

const WINDOW_MS = 60_000;
/** A key's budget is reserved in this many blocks a window at most (see keyRateLimiter). */
const BLOCKS_PER_WINDOW = 100;

/** What this process holds of one key's current window. */
interface Reserved {
  /** When the window ends (this process's clock). */
  endsAt: number;
  /** The shared count after this process's last reservation. */
  shared: number;
  /** Requests this process may still answer from what it reserved. */
  left: number;
  /** A reservation under way: requests that find none left wait for it. */
  pending: Promise<void> | null;
}

/**
 * Counts one request of `request.apiKey` (set by the caller) against its minute's budget, writes
 * the headers, and refuses with 429 when the budget is spent.
 *
 * The budget is counted in the app's shared store (`app.countRateUnits`: the database, or Redis),
 * so instances grant one budget between them. A count per request would make every request of a
 * key a write on one hot row; instead a process reserves a block of the budget at once (a
 * hundredth of it, so 1 at the default 60 a minute: counted request by request) and answers
 * from it. Several processes never grant more than the budget together: a block only counts as
 * granted up to what was left. At most a block a process can go unused in a window, so a key
 * on several instances may be refused slightly before its budget; never after it. A window
 * found spent is remembered until it ends (no store write per refused request). A store that
 * fails lets the request through, as every limited route does (core/rate-limit.ts).
 */
export function keyRateLimiter(scope: FastifyInstance) {
  const reserved = new Map<string, Reserved>();

  async function reserve(keyId: string, state: Reserved, limit: number): Promise<void> {
    const block = Math.max(1, Math.floor(limit / BLOCKS_PER_WINDOW));
    const counted = await scope.countRateUnits(`v1-key:${keyId}`, block, WINDOW_MS);
    if (!counted) {
      state.left += 1; // the store failed: this request goes through uncounted
      return;
    }
    const before = counted.current - block;
    state.shared = Math.min(counted.current, limit);
    state.left += Math.max(0, Math.min(block, limit - before));
    state.endsAt = Date.now() + counted.ttl;
  }

  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const key = request.apiKey!;
    const limit = key.limits.requestsPerMinute;
    const now = Date.now();
    let state = reserved.get(key.id);
    if (!state || state.endsAt <= now) {
      // Bounded by the keys in use this minute; ended windows go first.
      if (reserved.size > 50_000) {
        for (const [id, s] of reserved) if (s.endsAt <= now) reserved.delete(id);
      }
      state = { endsAt: now + WINDOW_MS, shared: 0, left: 0, pending: null };
      reserved.set(key.id, state);
    }
    // Spent everywhere (shared count at the limit): refused until the window ends, no write.
    while (state.left === 0 && state.shared < limit) {
      state.pending ??= reserve(key.id, state, limit).finally(() => (state.pending = null));
      await state.pending;
    }
    const reset = Math.max(0, Math.ceil((state.endsAt - Date.now()) / 1000));
    reply.header('ratelimit-limit', String(limit));
    reply.header('ratelimit-reset', String(reset));
    if (state.left > 0) {
      state.left -= 1;
      reply.header('ratelimit-remaining', String(Math.max(0, limit - state.shared + state.left)));
      return;
    }
    reply.header('ratelimit-remaining', '0');
    // At least a second: a window ending this instant still asks the client to wait.
    const wait = Math.max(1, reset);
    reply.header('retry-after', String(wait));
    throw new AppError(429, 'RATE_LIMITED', msg('v1.rate_limited', { limit, seconds: wait }));
  };
}
