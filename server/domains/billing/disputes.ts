/**
 * Disputes (chargebacks), run inside the webhook's transaction. While a payment is disputed, the
 * credits it granted that the buyer has not spent are held back: a ledger row takes them off the
 * balance ('stripe_dispute_hold', keyed by the dispute), and if the dispute is won another gives
 * back exactly that amount ('stripe_dispute_release'); a lost dispute keeps the hold. The ledger
 * stays the only balance, so every spending path already respects the hold.
 *
 * Events may arrive in any order or more than once: the dispute row (payment_disputes) records
 * whether the hold was applied and whether the dispute closed, and the payment's row is locked
 * first, so two events of one payment never interleave.
 */
import type { Tx } from '../../core/db.ts';
import { applyCreditChange, takeBackCredits } from '../credits/service.ts';
import type { BillingContext } from './context.ts';
import * as payments from './payments-repository.ts';
import { DISPUTE_WON_STATUSES } from './payments-repository.ts';
import { recordDisputeOutcome } from './money-event-records.ts';
import { creditsKept, findPaidItem, type PaidItem, type PaymentRef } from './refunds.ts';

/** A dispute as the Stripe adapter reads it. */
export interface Dispute extends PaymentRef {
  id: string;
  chargeId: string;
  amountCents: number;
  status: string;
}

const isWon = (status: string) => DISPUTE_WON_STATUSES.includes(status);

export function createDisputes({ log }: Pick<BillingContext, 'log'>) {
  /** The disputed payment, locked; null (and logged) when it is not one of ours. */
  async function disputedItem(tx: Tx, dispute: Dispute): Promise<PaidItem | null> {
    const item = await findPaidItem(tx, dispute);
    if (!item) {
      log.warn(
        { disputeId: dispute.id, chargeId: dispute.chargeId },
        'dispute of a payment we cannot attribute',
      );
    }
    return item;
  }

  /** Holds the unspent credits the disputed share of the payment granted. */
  async function hold(tx: Tx, item: PaidItem, dispute: Dispute) {
    const share = Math.min(1, dispute.amountCents / Math.max(1, item.amountCents));
    const disputedCredits = Math.round(item.monthsGranted * item.creditsPerMonth * share);
    const due = Math.max(0, Math.min(await creditsKept(tx, item), disputedCredits));
    const { taken } =
      due > 0
        ? await takeBackCredits(tx, {
            userId: item.userId,
            amount: due,
            sourceType: 'stripe_dispute_hold',
            sourceId: dispute.id,
            description: `Held while the payment for ${item.name} is disputed`,
          })
        : { taken: 0 };
    return { creditsHeld: taken, creditsShort: due - taken, heldAt: new Date() };
  }

  /** Issue 37: the outcome's receipt and, lost, what it takes off the value of a credit. */
  const recordOutcome = (tx: Tx, item: PaidItem, dispute: Dispute, creditsHeld: number) =>
    recordDisputeOutcome(tx, {
      payment: item.payment,
      disputeId: dispute.id,
      won: isWon(dispute.status),
      amountCents: dispute.amountCents,
      creditsHeld,
    });

  const rowOf = (item: PaidItem, dispute: Dispute) => ({
    id: dispute.id,
    provider: 'stripe' as const,
    userId: item.userId,
    checkoutId: 'checkoutId' in item.payment ? item.payment.checkoutId : null,
    invoiceId: 'invoiceId' in item.payment ? item.payment.invoiceId : null,
    chargeId: dispute.chargeId,
    amountCents: dispute.amountCents,
  });

  return {
    /** charge.dispute.created: hold the payment's unspent credits (once; not if already won). */
    async openDispute(tx: Tx, dispute: Dispute) {
      const item = await disputedItem(tx, dispute);
      if (!item) return;
      const known = await payments.findDispute(tx, dispute.id);
      if (known?.heldAt) return;
      // Closed in our favour before this event arrived: nothing to hold.
      if (known && isWon(known.status)) return;
      await payments.upsertDispute(tx, {
        ...rowOf(item, dispute),
        status: known?.status ?? dispute.status,
        ...(await hold(tx, item, dispute)),
      });
    },

    /**
     * charge.dispute.closed: won (or an inquiry closed) gives back exactly what was held; lost
     * keeps the hold, applying it now if the close arrived before the create.
     */
    async closeDispute(tx: Tx, dispute: Dispute) {
      const item = await disputedItem(tx, dispute);
      if (!item) return;
      const known = await payments.findDispute(tx, dispute.id);
      if (known?.closedAt) return;
      const row = { ...rowOf(item, dispute), status: dispute.status, closedAt: new Date() };
      if (isWon(dispute.status)) {
        const held = known?.creditsHeld ?? 0;
        if (held > 0) {
          await applyCreditChange(tx, {
            userId: item.userId,
            amount: held,
            sourceType: 'stripe_dispute_release',
            sourceId: dispute.id,
            description: `Dispute of the payment for ${item.name} won: held credits returned`,
          });
        }
        await payments.upsertDispute(tx, { ...row, creditsReleased: held });
        await recordOutcome(tx, item, dispute, held);
        return;
      }
      const held = known?.heldAt ? null : await hold(tx, item, dispute);
      await payments.upsertDispute(tx, { ...row, ...held });
      await recordOutcome(tx, item, dispute, held?.creditsHeld ?? known?.creditsHeld ?? 0);
    },
  };
}
