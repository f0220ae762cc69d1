/**
 * A key's limits (issue 36, item 5): config.apiLimits (API_DEFAULT_LIMITS by default), raised by
 * the owner's plan (content/plans.json `api`), and the per-key request budget of /v1, counted in
 * the app's shared rate-limit store (the database, or Redis with REDIS_URL: core/rate-limit.ts) so it holds across
 * instances. Every answer of an authenticated /v1 request names its budget in the IETF draft's
 * headers (RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset in seconds); a refusal adds
 * Retry-After.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import catalogue from '../../../content/plans.json' with { type: 'json' };
import { AppError } from '../../core/errors.ts';
import { msg } from '../../core/api-messages.ts';
import { API_DEFAULT_LIMITS } from '../../../shared/public-api.ts';

export interface KeyLimits {
  requestsPerMinute: number;
  unfinishedVideos: number;
}

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

/**
 * Counts one request of `request.apiKey` (set by the caller) against its budget, writes the
 * headers, and refuses with 429 when the minute's budget is spent. The count uses
 * @fastify/rate-limit's `createRateLimit` on the app's store (its failure lets the request
 * through, as every limited route does: core/rate-limit.ts).
 */
export function keyRateLimiter(scope: FastifyInstance) {
  const limiter = scope.createRateLimit({
    timeWindow: WINDOW_MS,
    max: (request) =>
      request.apiKey?.limits.requestsPerMinute ?? API_DEFAULT_LIMITS.requestsPerMinute,
    keyGenerator: (request) => `v1-key:${request.apiKey?.id ?? ''}`,
  });
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const result = await limiter(request);
    if (result.isAllowed) return;
    const reset = Math.max(0, result.ttlInSeconds);
    reply.header('ratelimit-limit', String(result.max));
    reply.header('ratelimit-remaining', String(result.remaining));
    reply.header('ratelimit-reset', String(reset));
    if (!result.isExceeded) return;
    // At least a second: a window ending this instant still asks the client to wait.
    const wait = Math.max(1, reset);
    reply.header('retry-after', String(wait));
    throw new AppError(
      429,
      'RATE_LIMITED',
      msg('v1.rate_limited', { limit: result.max, seconds: wait }),
    );
  };
}
