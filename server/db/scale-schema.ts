/**
 * State that several API instances on one database share, re-exported by schema.ts (issue 18):
 * rate-limit counters, so N instances grant one budget, and the last tick each scheduled job ran,
 * so an hourly job runs on exactly one instance per tick.
 */
import { bigint, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { at } from './columns.ts';

/**
 * One fixed window per key (route and client address, server/core/rate-limit-store.ts; or the
 * hash of an address we mail, domains/accounts/mail-allowance.ts). A row whose reset_at has
 * passed counts as empty; the hourly cleanup deletes those.
 */
export const rateLimitHits = pgTable('rate_limit_hits', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  resetAt: at('reset_at').notNull(),
});

/**
 * The newest tick (floor(epoch ms / interval)) each scheduled job was claimed for, and by which
 * instance (server/core/scheduler.ts): claiming a tick is one conditional upsert, so one wins.
 */
export const scheduledJobRuns = pgTable('scheduled_job_runs', {
  name: text('name').primaryKey(),
  tick: bigint('tick', { mode: 'number' }).notNull(),
  ranAt: at('ran_at').notNull().defaultNow(),
  instance: text('instance').notNull(),
});

export type ScheduledJobRunRow = typeof scheduledJobRuns.$inferSelect;
