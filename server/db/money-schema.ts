/**
 * Money, part three (issue 37), re-exported by schema.ts: promotion codes and their redemptions,
 * the outbox of receipt emails, and each user's running value of a credit (what the margin view
 * prices a video's credits at).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import { at, createdAt } from './columns.ts';
import { ownerId, users } from './users-schema.ts';

/** What a promotion code may discount (shared/promotions.ts PROMOTION_TARGETS). */
export const PROMOTION_TARGETS = ['packs', 'plans', 'all'] as const;

/**
 * A promotion code the admin made. Exactly one of percent_off and amount_off_cents is set.
 * `code` is kept as typed; `code_key` (its lower case) is what a customer's entry is matched on,
 * so codes are case-insensitive and unique whatever their case. `redemptions` counts reserved
 * and redeemed uses: a checkout reserves one under the row's lock, so parallel checkouts never
 * take more than max_redemptions; an expired or cancelled checkout releases its reservation.
 */
export const promotionCodes = pgTable(
  'promotion_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code').notNull(),
    codeKey: text('code_key').notNull().unique(),
    percentOff: integer('percent_off'),
    amountOffCents: integer('amount_off_cents'),
    appliesTo: text('applies_to', { enum: PROMOTION_TARGETS }).notNull(),
    firstPurchaseOnly: boolean('first_purchase_only').notNull().default(false),
    /** null: no limit. */
    maxRedemptions: integer('max_redemptions'),
    redemptions: integer('redemptions').notNull().default(0),
    /** null: never. */
    expiresAt: at('expires_at'),
    active: boolean('active').notNull().default(true),
    /** With Stripe: the coupon and the promotion code made for it (null locally). */
    stripeCouponId: text('stripe_coupon_id'),
    stripePromotionCodeId: text('stripe_promotion_code_id'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('promotion_codes_created_idx').on(t.createdAt, t.id),
    check(
      'promotion_codes_one_discount',
      sql`(${t.percentOff} is null) <> (${t.amountOffCents} is null)`,
    ),
    check(
      'promotion_codes_percent_range',
      sql`${t.percentOff} is null or (${t.percentOff} between 1 and 100)`,
    ),
    check(
      'promotion_codes_amount_positive',
      sql`${t.amountOffCents} is null or ${t.amountOffCents} > 0`,
    ),
    check(
      'promotion_codes_redemptions_within_max',
      sql`${t.maxRedemptions} is null or ${t.redemptions} <= ${t.maxRedemptions}`,
    ),
  ],
);

/**
 * One use of a code: reserved when the checkout is created, redeemed when it is paid, released
 * when it expires or is cancelled (the code's `redemptions` goes back down). One per checkout.
 */
export const promotionRedemptions = pgTable(
  'promotion_redemptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    codeId: uuid('code_id')
      .notNull()
      .references(() => promotionCodes.id, { onDelete: 'cascade' }),
    userId: ownerId(),
    /** checkout_sessions.id (no foreign key: the provider's session id is known after insert). */
    checkoutId: text('checkout_id').notNull().unique(),
    discountCents: integer('discount_cents').notNull(),
    status: text('status', { enum: ['reserved', 'redeemed', 'released'] })
      .notNull()
      .default('reserved'),
    createdAt: createdAt(),
    redeemedAt: at('redeemed_at'),
  },
  (t) => [
    // The admin's list of a code's redemptions, newest first.
    index('promotion_redemptions_code_idx').on(t.codeId, t.createdAt, t.id),
    index('promotion_redemptions_user_idx').on(t.userId, t.status),
  ],
);

/** What a receipt is for. */
export const RECEIPT_KINDS = [
  'payment',
  'renewal',
  'refund',
  'dispute_won',
  'dispute_lost',
] as const;

/**
 * The outbox of receipt emails: a row is written in the same transaction as the money event it
 * reports (source_key unique: one receipt per payment, renewal, refund or dispute outcome, never
 * two), then sent after the commit and retried until sent. `payload` is what the template shows,
 * fixed when the event happened.
 */
export const receiptEmails = pgTable(
  'receipt_emails',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId(),
    kind: text('kind', { enum: RECEIPT_KINDS }).notNull(),
    /** e.g. checkout:<id>, invoice:<id>, refund:<re_…>, dispute:<dp_…>:won. */
    sourceKey: text('source_key').notNull().unique(),
    /** Shown to the customer: "R-" and a number from receipt_number_seq (migration 0019). */
    receiptNumber: text('receipt_number').notNull().unique(),
    /** shared/locales.ts: the language of the page the customer bought from. */
    locale: text('locale').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: ['pending', 'sent'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
    sentAt: at('sent_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('receipt_emails_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    // A customer's receipts, newest first (the local billing page).
    index('receipt_emails_user_idx').on(t.userId, t.createdAt, t.id),
  ],
);

/**
 * A user's running value of a credit (issue 37, item 5): every purchase adds what was paid (after
 * discount) and the credits it granted; a free grant adds credits only; a refund or a dispute's
 * loss takes both back. A video's revenue is its credits × paid_micros ÷ credits_granted at the
 * moment of its charge (the average price the customer paid per credit they were given), written
 * on the task in the charge's transaction (video_tasks.revenue_usd).
 */
export const userCreditValue = pgTable('user_credit_value', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** USD paid, in millionths. */
  paidMicros: bigint('paid_micros', { mode: 'number' }).notNull().default(0),
  creditsGranted: bigint('credits_granted', { mode: 'number' }).notNull().default(0),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

export type PromotionCodeRow = typeof promotionCodes.$inferSelect;
export type PromotionRedemptionRow = typeof promotionRedemptions.$inferSelect;
export type ReceiptEmailRow = typeof receiptEmails.$inferSelect;
