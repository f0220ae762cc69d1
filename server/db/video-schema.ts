/**
 * The video domain's provider health, re-exported by schema.ts: one row per provider, shared by
 * every worker, so a circuit breaker opened by one process is honoured by all and shows in the
 * admin status.
 */
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { at } from './columns.ts';

/** One submit of a task to a route entry (video_tasks.route_attempts). */
export interface RouteAttempt {
  provider: string;
  model: string;
  at: string;
  /** accepted, rate_limited, unavailable, rejected, content_policy, in_doubt */
  outcome: string;
  status?: number | null;
}

export const videoProviderHealth = pgTable('video_provider_health', {
  provider: text('provider').primaryKey(),
  /** Submits in a row that the provider did not accept (reset by an accepted one). */
  consecutiveFailures: integer('consecutive_failures').notNull().default(0),
  /** While in the future the provider is skipped (circuit open). */
  openUntil: at('open_until'),
  /** While in the future the provider asked us to wait (its Retry-After). */
  rateLimitedUntil: at('rate_limited_until'),
  lastError: text('last_error'),
  lastErrorAt: at('last_error_at'),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

export type VideoProviderHealthRow = typeof videoProviderHealth.$inferSelect;
