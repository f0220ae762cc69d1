/**
 * The users table, in a module of its own so that every other schema module (this folder's
 * schema.ts and the per-domain ones it re-exports) can reference it without an import circle.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { at } from './columns.ts';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Always stored lower-cased so one mailbox is one account. */
    email: text('email').notNull().unique(),
    name: text('name'),
    picture: text('picture'),
    avatarUrl: text('avatar_url'),
    credits: integer('credits').notNull().default(0),
    /** 'admin': the row behind an operator's admin sessions (server/domains/admin/identity.ts). */
    provider: text('provider', { enum: ['google', 'local', 'email', 'admin'] }).notNull(),
    googleSub: text('google_sub').unique(),
    passwordHash: text('password_hash'),
    canManageBlog: boolean('can_manage_blog').notNull().default(false),
    /**
     * When the mailbox owner proved the address (a confirmation or reset link, or Google); null
     * means unproven: no password sign-in, and a Google sign-in takes the account over.
     */
    emailVerifiedAt: at('email_verified_at'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('users_credits_non_negative', sql`${t.credits} >= 0`),
    // The admin user list (newest first, keyset on created_at, id) and its search by any part of
    // the email: trigram GIN answers ILIKE '%text%' (pg_trgm, migration 0011).
    index('users_created_id_idx').on(t.createdAt, t.id),
    // fastupdate off: sign-ups are rare, and a pending list would be read by every search.
    index('users_email_trgm_idx')
      .using('gin', t.email.op('gin_trgm_ops'))
      .with({ fastupdate: false }),
  ],
);

/** The user a row belongs to; deleting the user deletes the row. */
export const ownerId = () =>
  uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });
