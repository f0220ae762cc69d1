/**
 * The public API's settings (issue 36): a key's limits when its owner's plan names none (a plan's
 * `api` in content/plans.json only raises them). Read once by loadConfig.
 */
import { Type } from 'typebox';
import { API_DEFAULT_LIMITS } from '../shared/public-api.ts';
import type { KeyLimits } from './core/access.ts';

export const ApiEnvSchema = {
  /** /v1 requests a key may make a minute. */
  API_REQUESTS_PER_MINUTE: Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    default: API_DEFAULT_LIMITS.requestsPerMinute,
  }),
  /** A key's videos that may be pending or processing at once. */
  API_UNFINISHED_VIDEOS: Type.Integer({
    minimum: 1,
    maximum: 1000,
    default: API_DEFAULT_LIMITS.unfinishedVideos,
  }),
};

/** The defaults of every key (a plan may raise them: domains/api/v1-limits.ts). */
export type ApiLimitsConfig = KeyLimits;

export const apiLimits = (env: {
  API_REQUESTS_PER_MINUTE: number;
  API_UNFINISHED_VIDEOS: number;
}): ApiLimitsConfig => ({
  requestsPerMinute: env.API_REQUESTS_PER_MINUTE,
  unfinishedVideos: env.API_UNFINISHED_VIDEOS,
});
