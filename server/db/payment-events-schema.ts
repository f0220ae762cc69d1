/**
 * Billing's tables for what happens to a payment after it is made (Stripe refunds, disputes and
 * invoice payments), re-exported by schema.ts so they are part of the one drizzle schema.
 */
import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { at, createdAt } from './columns.ts';
import { ownerId } from './users-schema.ts';

/**
 * The payment behind each paid subscription invoice, recorded when invoice.paid arrives, so that
 * a refund or dispute of that payment finds the invoice, its owner and the credits it granted.
 */
export const invoicePayments = pgTable(
  'invoice_payments',
  {
    invoiceId: text('invoice_id').primaryKey(),
    provider: text('provider', { enum: ['stripe'] }).notNull(),
    userId: ownerId(),
    subscriptionId: text('subscription_id').notNull(),
    paymentIntentId: text('payment_intent_id'),
    /** Set when the payment was a bare charge (no payment intent). */
    chargeId: text('charge_id'),
    amountCents: integer('amount_cents').notNull(),
    /** What a promotion took off this invoice (issue 37). */
    discountCents: integer('discount_cents').notNull().default(0),
    /** The period the invoice pays for (a yearly plan's monthly grants are keyed by it). */
    periodStart: at('period_start').notNull(),
    /** The plan's credits for one month, and how many months this invoice has granted so far. */
    creditsPerMonth: integer('credits_per_month').notNull(),
    monthsGranted: integer('months_granted').notNull().default(0),
    /** Credits granted so far (months after a partial refund grant only the unrefunded share). */
    creditsGranted: integer('credits_granted').notNull().default(0),
    refundedCents: integer('refunded_cents').notNull().default(0),
    /** Credits taken back after refunds, and what could not be taken (already spent). */
    creditsRefunded: integer('credits_refunded').notNull().default(0),
    creditsUnrecovered: integer('credits_unrecovered').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('invoice_payments_payment_intent_idx').on(t.paymentIntentId),
    index('invoice_payments_charge_idx').on(t.chargeId),
    index('invoice_payments_subscription_period_idx').on(t.subscriptionId, t.periodStart),
    // Issue 37: a customer's payments on the billing page, newest first (payment-history.ts).
    index('invoice_payments_user_created_idx').on(t.userId, t.createdAt, t.invoiceId),
  ],
);

/**
 * Disputes (chargebacks) of our payments. While one is open or lost, the credits its payment
 * granted and the buyer had not spent are held: taken off the balance by a ledger row
 * ('stripe_dispute_hold'), given back by another ('stripe_dispute_release') if the dispute is won.
 */
export const paymentDisputes = pgTable(
  'payment_disputes',
  {
    /** The provider's dispute id (dp_…). */
    id: text('id').primaryKey(),
    provider: text('provider', { enum: ['stripe'] }).notNull(),
    userId: ownerId(),
    /** The disputed payment: a pack's checkout, or a subscription invoice. */
    checkoutId: text('checkout_id'),
    invoiceId: text('invoice_id'),
    chargeId: text('charge_id').notNull(),
    amountCents: integer('amount_cents').notNull(),
    /** Stripe's dispute status as last seen (needs_response, won, lost, …). */
    status: text('status').notNull(),
    creditsHeld: integer('credits_held').notNull().default(0),
    /** Credits the hold should have taken that were already spent. */
    creditsShort: integer('credits_short').notNull().default(0),
    creditsReleased: integer('credits_released').notNull().default(0),
    /** When the hold was applied (charge.dispute.created, or a lost close seen first). */
    heldAt: at('held_at'),
    closedAt: at('closed_at'),
    createdAt: createdAt(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('payment_disputes_checkout_idx').on(t.checkoutId),
    index('payment_disputes_invoice_idx').on(t.invoiceId),
  ],
);

export type InvoicePaymentRow = typeof invoicePayments.$inferSelect;
export type PaymentDisputeRow = typeof paymentDisputes.$inferSelect;
