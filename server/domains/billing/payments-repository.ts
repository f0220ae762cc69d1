/**
 * SQL for what happens to a payment after it is made: the payment behind each subscription
 * invoice, its refunds and disputes, a subscription falling past due, and a checkout that expired
 * or failed. Every function takes `db | tx` first; reads that lead to a change lock their row.
 */
import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db.ts';
import {
  invoicePayments,
  paymentDisputes,
  subscriptions,
  type InvoicePaymentRow,
  type PaymentDisputeRow,
} from '../../db/schema.ts';

/** Dispute statuses that end in the seller's favour: what was held is given back. */
export const DISPUTE_WON_STATUSES = ['won', 'warning_closed', 'prevented'];

/** Records the payment of a paid invoice once; a replay keeps the first record. */
export async function insertInvoicePayment(
  db: DbOrTx,
  row: typeof invoicePayments.$inferInsert,
): Promise<void> {
  await db.insert(invoicePayments).values(row).onConflictDoNothing();
}

/** The invoice a payment intent (or a bare charge) paid, locked for the caller's change. */
export async function findInvoicePaymentForUpdate(
  db: DbOrTx,
  payment: { paymentIntentId: string | null; chargeId: string | null },
): Promise<InvoicePaymentRow | null> {
  const matches: SQL[] = [];
  if (payment.paymentIntentId) {
    matches.push(eq(invoicePayments.paymentIntentId, payment.paymentIntentId));
  }
  if (payment.chargeId) matches.push(eq(invoicePayments.chargeId, payment.chargeId));
  if (matches.length === 0) return null;
  const [row] = await db
    .select()
    .from(invoicePayments)
    .where(or(...matches))
    .limit(1)
    .for('update');
  return row ?? null;
}

/** The invoice that paid a subscription's period, locked (a yearly plan's monthly grants). */
export async function findPeriodInvoiceForUpdate(
  db: DbOrTx,
  subscriptionId: string,
  periodStart: Date,
): Promise<InvoicePaymentRow | null> {
  const [row] = await db
    .select()
    .from(invoicePayments)
    .where(
      and(
        eq(invoicePayments.subscriptionId, subscriptionId),
        eq(invoicePayments.periodStart, periodStart),
      ),
    )
    .limit(1)
    .for('update');
  return row ?? null;
}

export async function updateInvoicePayment(
  db: DbOrTx,
  invoiceId: string,
  changes: Partial<typeof invoicePayments.$inferInsert>,
): Promise<void> {
  await db.update(invoicePayments).set(changes).where(eq(invoicePayments.invoiceId, invoiceId));
}

/** A monthly grant of a yearly plan, counted on the invoice that paid its year. */
export async function addInvoiceCredits(
  db: DbOrTx,
  invoiceId: string,
  credits: number,
): Promise<void> {
  await db
    .update(invoicePayments)
    .set({
      creditsGranted: sql`${invoicePayments.creditsGranted} + ${credits}`,
      monthsGranted: sql`${invoicePayments.monthsGranted} + 1`,
    })
    .where(eq(invoicePayments.invoiceId, invoiceId));
}

/** The disputed payment, as a dispute row names it. */
export type DisputedPayment = { checkoutId: string } | { invoiceId: string };

const ofPayment = (payment: DisputedPayment) =>
  'checkoutId' in payment
    ? eq(paymentDisputes.checkoutId, payment.checkoutId)
    : eq(paymentDisputes.invoiceId, payment.invoiceId);

export async function findDispute(db: DbOrTx, id: string): Promise<PaymentDisputeRow | null> {
  const [row] = await db.select().from(paymentDisputes).where(eq(paymentDisputes.id, id)).limit(1);
  return row ?? null;
}

export async function upsertDispute(
  db: DbOrTx,
  row: typeof paymentDisputes.$inferInsert,
): Promise<void> {
  const { id: _id, ...changes } = row;
  await db
    .insert(paymentDisputes)
    .values(row)
    .onConflictDoUpdate({
      target: paymentDisputes.id,
      set: { ...changes, updatedAt: sql`now()` },
    });
}

/** Credits a payment's disputes hold now (held and not given back). */
export async function creditsHeldFor(db: DbOrTx, payment: DisputedPayment): Promise<number> {
  const [row] = await db
    .select({
      held: sql<number>`coalesce(sum(${paymentDisputes.creditsHeld} - ${paymentDisputes.creditsReleased}), 0)::int`,
    })
    .from(paymentDisputes)
    .where(ofPayment(payment));
  return Number(row?.held ?? 0);
}

/** Whether a payment has a dispute that is open or was lost (its credits stay held back). */
export async function hasUnresolvedDispute(db: DbOrTx, payment: DisputedPayment): Promise<boolean> {
  const [row] = await db
    .select({ id: paymentDisputes.id })
    .from(paymentDisputes)
    .where(
      and(
        ofPayment(payment),
        sql`${paymentDisputes.status} not in (${sql.join(
          DISPUTE_WON_STATUSES.map((s) => sql`${s}`),
          sql`, `,
        )})`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * An active subscription falls past due because an invoice was declined, unless that invoice is
 * already recorded as paid (a failure notice that arrives after the payment). True when changed.
 */
export async function markSubscriptionPastDue(
  db: DbOrTx,
  subscriptionId: string,
  invoiceId: string,
): Promise<boolean> {
  const changed = await db
    .update(subscriptions)
    .set({ status: 'past_due', updatedAt: sql`now()` })
    .where(
      and(
        eq(subscriptions.id, subscriptionId),
        inArray(subscriptions.status, ['active', 'trialing']),
        sql`not exists (select 1 from ${invoicePayments} where ${invoicePayments.invoiceId} = ${invoiceId})`,
      ),
    )
    .returning({ id: subscriptions.id });
  return changed.length > 0;
}
