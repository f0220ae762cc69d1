/**
 * Paid subscription invoices: the payment behind each one is recorded when invoice.paid arrives
 * (refunds and disputes of that payment find their credits through it), and a yearly plan's
 * monthly grants are counted on the invoice that paid the year. A month grants nothing while the
 * year's payment is disputed (open or lost), and only the unrefunded share after a refund.
 */
import type { Tx } from '../../core/db.ts';
import type { SubscriptionRow } from '../../db/schema.ts';
import type { Plan } from '../../../shared/billing.ts';
import { applyCreditChange, findCreditChange } from '../credits/service.ts';
import * as payments from './payments-repository.ts';

/** A paid invoice's payment, as the Stripe adapter read it. */
export interface InvoicePayment {
  invoiceId: string;
  subscriptionId: string;
  userId: string;
  paymentIntentId: string | null;
  chargeId: string | null;
  amountCents: number;
  periodStart: Date;
}

/**
 * Records a paid invoice's payment once, with the credits its first month granted (the ledger row
 * keyed by the invoice, written by invoice.paid or by the checkout's fulfilment).
 */
export async function recordInvoicePayment(tx: Tx, paid: InvoicePayment, plan: Plan) {
  const grant = await findCreditChange(tx, 'stripe_invoice', paid.invoiceId);
  await payments.insertInvoicePayment(tx, {
    ...paid,
    provider: 'stripe',
    creditsPerMonth: plan.credits,
    monthsGranted: grant ? 1 : 0,
    creditsGranted: grant?.amount ?? 0,
  });
}

/**
 * One later month of a yearly plan (month 1…11 after the period start), once per month. Returns
 * whether credits were granted now.
 */
export async function grantYearlyMonth(
  tx: Tx,
  sub: SubscriptionRow,
  plan: Plan,
  month: number,
): Promise<boolean> {
  const invoice = await payments.findPeriodInvoiceForUpdate(tx, sub.id, sub.currentPeriodStart);
  let amount = plan.credits;
  if (invoice) {
    if (await payments.hasUnresolvedDispute(tx, { invoiceId: invoice.invoiceId })) return false;
    const refunded = Math.min(1, invoice.refundedCents / Math.max(1, invoice.amountCents));
    // What the year's payment bought, even after a plan switch in the portal (plan-changes.ts).
    amount = Math.round(invoice.creditsPerMonth * (1 - refunded));
  }
  if (amount <= 0) return false;
  const startEpoch = Math.floor(sub.currentPeriodStart.getTime() / 1000);
  const applied = await applyCreditChange(tx, {
    userId: sub.userId,
    amount,
    sourceType: 'subscription_month',
    sourceId: `${sub.id}:${startEpoch}:${month}`,
    description: `${plan.name} plan (yearly): ${amount} credits for month ${month + 1}`,
  });
  if (applied.duplicate) return false;
  if (invoice) await payments.addInvoiceCredits(tx, invoice.invoiceId, amount);
  return true;
}
