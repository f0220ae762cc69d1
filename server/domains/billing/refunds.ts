/**
 * Refunds, run inside the webhook's transaction: a refunded payment takes back the credits it
 * granted in proportion to the refunded share, never below zero (what was already spent is
 * recorded as unrecovered). A pack's payment is its checkout; a subscription's is the invoice
 * recorded when invoice.paid arrived (paid-invoices.ts), with a yearly plan's monthly grants.
 */
import type { Tx } from '../../core/db.ts';
import { findPack } from '../../../shared/billing.ts';
import { takeBackCredits } from '../credits/service.ts';
import type { BillingContext } from './context.ts';
import * as payments from './payments-repository.ts';
import type { DisputedPayment } from './payments-repository.ts';
import * as repo from './repository.ts';
import { recordRefund } from './money-event-records.ts';

/** A paid thing that granted credits: what it cost, what it granted, what came back since. */
export interface PaidItem {
  payment: DisputedPayment;
  userId: string;
  /** For ledger descriptions, e.g. "the Starter pack". */
  name: string;
  amountCents: number;
  /** Full credits of one month (a pack: all its credits) and how many months were granted. */
  creditsPerMonth: number;
  monthsGranted: number;
  creditsRefunded: number;
  creditsUnrecovered: number;
  /** Credits granted so far (partly refunded months grant less). */
  creditsGranted: number;
  /** The largest refunded total seen (invoices; a pack's comes with each refund). */
  refundedCents: number;
}

/** How a charge names the payment it collected. */
export interface PaymentRef {
  paymentIntentId: string | null;
  chargeId: string | null;
}

/** The pack checkout or subscription invoice a charge paid, locked until the transaction ends. */
export async function findPaidItem(tx: Tx, ref: PaymentRef): Promise<PaidItem | null> {
  const checkout = ref.paymentIntentId
    ? await repo.findCheckoutByPaymentIntent(tx, ref.paymentIntentId)
    : null;
  if (checkout?.kind === 'credits') {
    const granted = checkout.status === 'paid' ? checkout.credits : 0;
    return {
      payment: { checkoutId: checkout.id },
      userId: checkout.userId,
      name: `the ${findPack(checkout.itemId)?.name ?? checkout.itemId} pack`,
      amountCents: checkout.amountCents,
      creditsPerMonth: checkout.credits,
      monthsGranted: granted > 0 ? 1 : 0,
      creditsRefunded: checkout.creditsRefunded,
      creditsUnrecovered: checkout.creditsUnrecovered,
      creditsGranted: granted,
      refundedCents: 0,
    };
  }
  const invoice = await payments.findInvoicePaymentForUpdate(tx, ref);
  if (!invoice) return null;
  return {
    payment: { invoiceId: invoice.invoiceId },
    userId: invoice.userId,
    name: `subscription invoice ${invoice.invoiceId}`,
    amountCents: invoice.amountCents,
    creditsPerMonth: invoice.creditsPerMonth,
    monthsGranted: invoice.monthsGranted,
    creditsRefunded: invoice.creditsRefunded,
    creditsUnrecovered: invoice.creditsUnrecovered,
    creditsGranted: invoice.creditsGranted,
    refundedCents: invoice.refundedCents,
  };
}

/**
 * Credits of a paid item still counted as the buyer's: granted, less what refunds took (or
 * could not take) and what its disputes hold.
 */
export async function creditsKept(tx: Tx, item: PaidItem): Promise<number> {
  const held = await payments.creditsHeldFor(tx, item.payment);
  return item.creditsGranted - item.creditsRefunded - item.creditsUnrecovered - held;
}

async function saveRefundTotals(
  tx: Tx,
  item: PaidItem,
  totals: { creditsRefunded: number; creditsUnrecovered: number; refundedCents: number },
) {
  if ('checkoutId' in item.payment) {
    const { refundedCents: _cents, ...credits } = totals;
    await repo.updateCheckout(tx, item.payment.checkoutId, credits);
  } else {
    await payments.updateInvoicePayment(tx, item.payment.invoiceId, totals);
  }
}

export function createRefunds({ log }: Pick<BillingContext, 'log'>) {
  return {
    /**
     * A charge was refunded (its running total is `refundedCents`): the pack's or invoice's
     * credits beyond what the unrefunded share entitles go back, never below zero. Keyed by the
     * charge and its running total, so a replay takes nothing more. False when not ours.
     */
    async applyRefund(
      tx: Tx,
      refund: PaymentRef & {
        chargeId: string;
        amountCents: number;
        refundedCents: number;
        /** The charge's refunded total before this refund, when the event says. */
        previousRefundedCents?: number | null;
      },
    ): Promise<boolean> {
      const item = await findPaidItem(tx, refund);
      if (!item) return false;
      // Refund events can arrive out of order: the running total only grows.
      const refundedCents = Math.max(item.refundedCents, refund.refundedCents);
      const share = Math.min(1, refundedCents / Math.max(1, refund.amountCents));
      const entitled = Math.round(item.monthsGranted * item.creditsPerMonth * (1 - share));
      const due = (await creditsKept(tx, item)) - entitled;
      const totals = {
        creditsRefunded: item.creditsRefunded,
        creditsUnrecovered: item.creditsUnrecovered,
        refundedCents,
      };
      let takenNow = 0;
      if (due > 0) {
        const { taken, duplicate } = await takeBackCredits(tx, {
          userId: item.userId,
          amount: due,
          sourceType: 'stripe_refund',
          sourceId: `${refund.chargeId}:${refund.refundedCents}`,
          description: `Refund of ${item.name}`,
        });
        if (duplicate) return true;
        takenNow = taken;
        totals.creditsRefunded += taken;
        totals.creditsUnrecovered += due - taken;
        if (taken < due) {
          log.warn(
            { payment: item.payment, due, taken },
            'refund: credits already spent could not be taken back',
          );
        }
      }
      await saveRefundTotals(tx, item, totals);
      // Issue 37: the refund's receipt and what it takes off the value of a credit.
      await recordRefund(tx, {
        payment: item.payment,
        chargeId: refund.chargeId,
        refundedCents: refund.refundedCents,
        previousCents: refund.previousRefundedCents ?? item.refundedCents,
        creditsTakenBack: takenNow,
      });
      return true;
    },
  };
}
