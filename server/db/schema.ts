/**
 * The database schema (drizzle pg-core). It is the source of the committed SQL migrations in
 * ./migrations (`npm run db:generate`); the same SQL runs on PGlite and PostgreSQL.
 */
import { sql } from 'drizzle-orm';
import type { RouteAttempt } from './video-schema.ts';
import type { VideoOptions } from '../../shared/video-options.ts';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { at, createdAt } from './columns.ts';
import { ownerId, users } from './users-schema.ts';

/** A task's message as stored: a catalogue key (messages/api) and its parameters. */
export interface StoredText {
  key: string;
  params: Record<string, string | number>;
}

const timestamps = {
  createdAt: createdAt(),
  updatedAt: at('updated_at').notNull().defaultNow(),
};

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    /** SHA-256 of the bearer token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at'),
    /** Administrator sessions (the admin sign-in of a later issue creates them). */
    isAdmin: boolean('is_admin').notNull().default(false),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
  },
  (t) => [index('password_reset_tokens_user_id_idx').on(t.userId)],
);

/**
 * Single-use links that prove an email address. A sign-up's chosen password (and name) wait here
 * and reach the account only when the mailbox owner opens that sign-up's link; null keeps the
 * account's own (a link sent after a password sign-in).
 */
export const emailVerificationTokens = pgTable(
  'email_verification_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    tokenHash: text('token_hash').notNull().unique(),
    passwordHash: text('password_hash'),
    name: text('name'),
    createdAt: createdAt(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
  },
  (t) => [index('email_verification_tokens_user_id_idx').on(t.userId)],
);

/**
 * The credits ledger: append-only. Every change of users.credits is one row here, written in the
 * same transaction; (source_type, source_id) is unique so a replayed grant or charge is a no-op.
 */
export const creditTransactions = pgTable(
  'credit_transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    amount: integer('amount').notNull(),
    balanceAfter: integer('balance_after').notNull(),
    sourceType: text('source_type').notNull(),
    sourceId: text('source_id').notNull(),
    description: text('description').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    unique('credit_transactions_source_unique').on(t.sourceType, t.sourceId),
    // A user's ledger, newest first, keyset on (created_at, id).
    index('credit_transactions_user_created_id_idx').on(t.userId, t.createdAt, t.id),
    // The admin charts read the last days of the whole ledger by time.
    index('credit_transactions_created_idx').on(t.createdAt),
    check('credit_transactions_balance_non_negative', sql`${t.balanceAfter} >= 0`),
  ],
);

/** One row per checkout we created (local or Stripe), keyed by the provider's session id. */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    id: text('id').primaryKey(),
    provider: text('provider', { enum: ['stripe', 'local'] }).notNull(),
    userId: ownerId(),
    kind: text('kind', { enum: ['subscription', 'credits'] }).notNull(),
    itemId: text('item_id').notNull(),
    billingCycle: text('billing_cycle', { enum: ['monthly', 'yearly'] }),
    /** What the customer pays: the list price less discount_cents. */
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    credits: integer('credits').notNull(),
    /** Issue 37: the promotion code entered on our pricing page and what it took off (cents). */
    promotionCodeId: uuid('promotion_code_id'),
    discountCents: integer('discount_cents').notNull().default(0),
    /** The language of the page the customer bought from (shared/locales.ts): their receipts'. */
    locale: text('locale').notNull().default('en'),
    /** failed: a delayed payment (e.g. a bank debit) that did not settle; nothing was granted. */
    status: text('status', { enum: ['open', 'paid', 'canceled', 'expired', 'failed'] })
      .notNull()
      .default('open'),
    successUrl: text('success_url').notNull(),
    cancelUrl: text('cancel_url').notNull(),
    paymentIntentId: text('payment_intent_id').unique(),
    subscriptionId: text('subscription_id'),
    /** Credits taken back after refunds, and what could not be taken (already spent). */
    creditsRefunded: integer('credits_refunded').notNull().default(0),
    creditsUnrecovered: integer('credits_unrecovered').notNull().default(0),
    createdAt: createdAt(),
    completedAt: at('completed_at'),
    /** When the provider stops accepting payment for it (Stripe sessions); null: never. */
    expiresAt: at('expires_at'),
  },
  (t) => [
    index('checkout_sessions_user_idx').on(t.userId),
    index('checkout_sessions_created_id_idx').on(t.createdAt, t.id),
    // Issue 37: a customer's payments on the billing page, newest first (payment-history.ts).
    index('checkout_sessions_user_paid_idx')
      .on(t.userId, t.completedAt, t.id)
      .where(sql`${t.status} = 'paid'`),
  ],
);

/**
 * Statuses under which a subscription counts as active (spec: "while active"). A user has at most
 * one subscription in these (the partial unique index below; migration 0007 spells the list).
 */
export const ACTIVE_SUBSCRIPTION_STATUSES = ['active', 'trialing', 'past_due'];

export const subscriptions = pgTable(
  'subscriptions',
  {
    /** The provider's subscription id (sub_… for Stripe, sub_local_… locally). */
    id: text('id').primaryKey(),
    provider: text('provider', { enum: ['stripe', 'local'] }).notNull(),
    userId: ownerId(),
    planId: text('plan_id').notNull(),
    billingCycle: text('billing_cycle', { enum: ['monthly', 'yearly'] }).notNull(),
    status: text('status').notNull(),
    currentPeriodStart: at('current_period_start').notNull(),
    currentPeriodEnd: at('current_period_end').notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    canceledAt: at('canceled_at'),
    /** The language of the checkout that started it: its renewal receipts' (issue 37). */
    locale: text('locale').notNull().default('en'),
    ...timestamps,
  },
  (t) => [
    index('subscriptions_user_idx').on(t.userId),
    uniqueIndex('subscriptions_one_active_per_user')
      .on(t.userId)
      .where(
        sql`${t.status} in (${sql.raw(ACTIVE_SUBSCRIPTION_STATUSES.map((s) => `'${s}'`).join(', '))})`,
      ),
  ],
);

/** The user's Stripe customer, made once and named by every later checkout (never a second one). */
export const stripeCustomers = pgTable('stripe_customers', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  customerId: text('customer_id').notNull().unique(),
  createdAt: createdAt(),
});

/**
 * Subscriptions that arrived while the user already had an active one: stored canceled, granting
 * nothing, and settled at the provider after the commit (cancelled, and refunded when `refund`)
 * by whoever stored them or, failing that, by the billing sweep. No foreign key: what is owed
 * outlives the rows it came from.
 */
export const duplicateSubscriptions = pgTable(
  'duplicate_subscriptions',
  {
    subscriptionId: text('subscription_id').primaryKey(),
    provider: text('provider', { enum: ['stripe', 'local'] }).notNull(),
    /** The active subscription the user keeps. */
    keptSubscriptionId: text('kept_subscription_id'),
    /** false for the ones migration 0007 found: paid periods the user had, cancelled only. */
    refund: boolean('refund').notNull().default(true),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: at('next_attempt_at').notNull().defaultNow(),
    settledAt: at('settled_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('duplicate_subscriptions_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.settledAt} is null`),
  ],
);

/** Every provider event we accepted, stored under its id in the same transaction as its effect. */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    provider: text('provider').notNull(),
    type: text('type').notNull(),
    handled: boolean('handled').notNull(),
    payload: jsonb('payload').notNull(),
    receivedAt: at('received_at').notNull().defaultNow(),
  },
  (t) => [index('webhook_events_received_id_idx').on(t.receivedAt, t.id)],
);

/**
 * Video tasks: pending → processing → completed | failed. Workers claim rows with
 * FOR UPDATE SKIP LOCKED and hold a lease they renew while working; an expired lease means the
 * worker died and the task is reclaimed.
 */
export const videoTasks = pgTable(
  'video_tasks',
  {
    id: uuid('id').primaryKey(),
    userId: ownerId(),
    status: text('status', { enum: ['pending', 'processing', 'completed', 'failed'] })
      .notNull()
      .default('pending'),
    statusMessage: text('status_message'),
    /** status_message as a catalogue key and parameters (messages/api), shown in the reader's language. */
    statusText: jsonb('status_text').$type<StoredText>(),
    progress: integer('progress').notNull().default(0),
    model: text('model').notNull(),
    mode: text('mode', { enum: ['text', 'image'] }).notNull(),
    prompt: text('prompt').notNull(),
    /** The re-encoded upload under DATA_DIR/uploads (image mode). */
    inputImage: text('input_image'),
    // The per-task record of issue 17: the provider (the route's first until one accepts) and
    // model that took the job, the adapter's job id (all its later calls need) and the
    // provider's request id (webhooks name it), submit_started_at (set before a submit is
    // sent: with no job id after a crash, that submit is in doubt), timings, reported cost,
    // the provider's own error text (admin only), why it failed, and every submit tried.
    provider: text('provider').notNull(),
    providerModel: text('provider_model'),
    providerJobId: text('provider_job_id'),
    providerRequestId: text('provider_request_id'),
    submitStartedAt: at('submit_started_at'),
    submittedAt: at('submitted_at'),
    providerFinishedAt: at('provider_finished_at'),
    providerCostUsd: numeric('provider_cost_usd', { precision: 12, scale: 6 }),
    /**
     * Issue 37: what the credits charged brought in, at the user's value of a credit when charged
     * (money-schema.ts userCreditValue); 0 for credits nobody paid for.
     */
    revenueUsd: numeric('revenue_usd', { precision: 12, scale: 6 }),
    providerError: text('provider_error'),
    failureKind: text('failure_kind'),
    routeAttempts: jsonb('route_attempts').$type<RouteAttempt[]>().notNull().default([]),
    /** The credits the submit debited: a refund returns exactly this, whatever VIDEO_COST is now. */
    creditsCharged: integer('credits_charged').notNull(),
    /** Not claimed before this (a rate limit's Retry-After, the next status check). */
    runAfter: at('run_after').notNull().defaultNow(),
    resultUrl: text('result_url'),
    posterUrl: text('poster_url'),
    errorMessage: text('error_message'),
    /** error_message as a catalogue key and parameters (messages/api). */
    errorText: jsonb('error_text').$type<StoredText>(),
    attempts: integer('attempts').notNull().default(0),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: at('lease_expires_at'),
    deadlineAt: at('deadline_at').notNull(),
    completedAt: at('completed_at'),
    /**
     * When its owner deleted it (issue 34): result, poster, upload and prompt are gone; the row
     * stays because the ledger's charge and refund rows name it.
     */
    deletedAt: at('deleted_at'),
    /**
     * Issue 35: the creative options (null: the spec's clip, DEFAULT_OPTIONS). A last frame and
     * reference images are uploads named after the task (media.ts taskUploads).
     */
    options: jsonb('options').$type<VideoOptions>(),
    /** The video this one extends (its task), or null. */
    sourceTaskId: uuid('source_task_id'),
    /** Length of the clip asked for: 8 s, or the source's length + 7 for an extension. */
    durationSeconds: integer('duration_seconds').notNull().default(8),
    /**
     * Issue 36: the API key that started it (null: the site), the caller's metadata (string
     * pairs, returned as given) and the URL its events also go to (signed with the user's
     * request secret).
     */
    apiKeyId: uuid('api_key_id'),
    metadata: jsonb('metadata').$type<Record<string, string>>(),
    webhookUrl: text('webhook_url'),
    ...timestamps,
  },
  (t) => [
    index('video_tasks_queue_idx').on(t.status, t.createdAt),
    // A user's tasks newest first, keyset on (created_at, id): the /v1 list (issue 36).
    index('video_tasks_user_idx').on(t.userId, t.createdAt, t.id),
    index('video_tasks_provider_request_idx').on(t.providerRequestId),
    // The admin task list (keyset on created_at, id) and the charts' scans by created_at.
    index('video_tasks_created_id_idx').on(t.createdAt, t.id),
    // A user's history: their finished videos, newest first by completed_at, id.
    index('video_tasks_history_idx')
      .on(t.userId, t.completedAt, t.id)
      .where(sql`${t.status} = 'completed' and ${t.resultUrl} is not null`),
    // The worker's claim: unfinished tasks by when their next step is due.
    index('video_tasks_due_idx')
      .on(t.runAfter)
      .where(sql`${t.status} in ('pending', 'processing')`),
    // An API key's unfinished videos (its own cap, issue 36).
    index('video_tasks_api_key_unfinished_idx')
      .on(t.apiKeyId)
      .where(sql`${t.status} in ('pending', 'processing')`),
    check('video_tasks_progress_range', sql`${t.progress} between 0 and 100`),
  ],
);

// The accounts every other table belongs to.
export * from './users-schema.ts';
// Blog posts in their languages, and old slugs' redirects.
export * from './blog-schema.ts';
// The audit trail of admin changes and the admin sign-in lockout.
export * from './admin-schema.ts';
// Tables of what happens to a payment after it is made (issue 16): invoice payments, disputes.
export * from './payment-events-schema.ts';
export * from './video-schema.ts';
// Shared by every instance (issue 18): rate-limit counters and scheduled job ticks.
export * from './scale-schema.ts';
// The public API (issue 36): keys, idempotency, webhook endpoints and the delivery outbox.
export * from './api-schema.ts';
export * from './money-schema.ts';

export type UserRow = typeof users.$inferSelect;
export type VideoTaskRow = typeof videoTasks.$inferSelect;
export type CreditTransactionRow = typeof creditTransactions.$inferSelect;
export type CheckoutSessionRow = typeof checkoutSessions.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type DuplicateSubscriptionRow = typeof duplicateSubscriptions.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
