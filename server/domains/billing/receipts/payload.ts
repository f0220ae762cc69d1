/**
 * What a receipt shows, fixed when its money event happened (receipt_emails.payload): a later
 * change of a plan's name or price, or of the customer's balance, never rewrites a receipt.
 */
import type { MoneyEvent, PurchasedItem } from '../../../contracts/money-events.ts';
import type { ReceiptKind } from '../../../../shared/api/email-previews.ts';
import { findPack, findPlan } from '../../../../shared/billing.ts';

export interface ReceiptPayload {
  kind: ReceiptKind;
  item: {
    type: PurchasedItem['type'];
    id: string;
    /** The pack's or plan's name when the event happened (a brand name: the same in every language). */
    name: string;
    billingCycle: 'monthly' | 'yearly' | null;
  };
  /** Paid (payment, renewal), refunded now (refund), or disputed (dispute): minor units. */
  amountCents: number;
  /** Lower-case ISO 4217 code, as the payment provider reports it. */
  currency: string;
  /** What a promotion code took off the price (payment, renewal; else 0), and the code. */
  discountCents: number;
  promotionCode: string | null;
  /**
   * Credits granted now (payment, renewal), taken back off the balance (refund), held while the
   * dispute was open (dispute: given back if won, kept if lost).
   */
  credits: number;
  /** A yearly plan's credits come month by month: what the money buys in all (else = credits). */
  creditsBought: number;
  /** When it happened, ISO 8601. */
  at: string;
  /** Refund and dispute: the payment they concern ("checkout:<id>" or "invoice:<id>"). */
  paymentKey: string | null;
}

/** The receipt's unique source: one receipt per payment, renewal, refund or dispute outcome. */
export function receiptSourceKey(event: MoneyEvent): string {
  switch (event.kind) {
    case 'payment':
      return `checkout:${event.checkoutId}`;
    case 'renewal':
      return `invoice:${event.invoiceId}`;
    case 'refund':
      return `refund:${event.refundId}`;
    case 'dispute_won':
      return `dispute:${event.disputeId}:won`;
    case 'dispute_lost':
      return `dispute:${event.disputeId}:lost`;
  }
}

function itemName(item: PurchasedItem): string {
  const found = item.type === 'credits' ? findPack(item.id) : findPlan(item.id);
  return found?.name ?? item.id;
}

/** The payload a money event's receipt shows. */
export function receiptPayload(event: MoneyEvent): ReceiptPayload {
  const common = {
    kind: event.kind,
    item: {
      type: event.item.type,
      id: event.item.id,
      name: itemName(event.item),
      billingCycle:
        event.item.type === 'subscription' ? (event.item.billingCycle ?? 'monthly') : null,
    },
    amountCents: event.amountCents,
    currency: event.currency.toLowerCase(),
    at: event.at.toISOString(),
  };
  switch (event.kind) {
    case 'payment':
    case 'renewal':
      return {
        ...common,
        discountCents: event.discountCents,
        promotionCode: event.kind === 'payment' ? (event.promotionCode ?? null) : null,
        credits: event.credits,
        creditsBought: event.creditsBought,
        paymentKey: null,
      };
    case 'refund':
      return {
        ...common,
        discountCents: 0,
        promotionCode: null,
        credits: event.creditsTakenBack,
        creditsBought: event.creditsTakenBack,
        paymentKey: event.paymentKey,
      };
    case 'dispute_won':
    case 'dispute_lost':
      return {
        ...common,
        discountCents: 0,
        promotionCode: null,
        credits: event.creditsHeld,
        creditsBought: event.creditsHeld,
        paymentKey: event.paymentKey,
      };
  }
}
