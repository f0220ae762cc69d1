/**
 * The admin domain's tables, re-exported by schema.ts so they are part of the one drizzle schema:
 * the audit trail of admin changes and the admin sign-in lockout.
 */
import { index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { at } from './columns.ts';
import { users } from './users-schema.ts';

/**
 * The audit trail of admin mutations: one row per change, written in the same transaction as the
 * change itself, so a change without its row (or a row without its change) cannot exist.
 */
export const adminActions = pgTable(
  'admin_actions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The admin username, or `cli:<os user>` for the admin CLI. */
    adminUsername: text('admin_username').notNull(),
    action: text('action').notNull(),
    targetUserId: uuid('target_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The other thing acted on (a task id, a ledger row id), when there is one. */
    targetId: text('target_id'),
    details: jsonb('details').notNull().default({}),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    // The audit log, newest first, keyset on (created_at, id).
    index('admin_actions_created_id_idx').on(t.createdAt, t.id),
    index('admin_actions_target_user_idx').on(t.targetUserId),
  ],
);

/**
 * Failed admin sign-ins, counted per key (`user:<username>` and `ip:<address>`) in the database,
 * so every instance sees the same lockout.
 */
export const adminLoginFailures = pgTable('admin_login_failures', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull(),
  lastFailedAt: at('last_failed_at').notNull(),
  lockedUntil: at('locked_until'),
});

export type AdminActionRow = typeof adminActions.$inferSelect;
