/**
 * The promotion code the buyer entered on the pricing page (issue 37, item 1), checked against
 * the server: the payment dialog quotes it for the item bought and sends it with the checkout.
 */
import { atom } from 'nanostores';
import type { PromotionQuote } from '../../shared/promotions.ts';
import type { PurchaseItem } from './subscription.ts';

/** The code as the server spells it, or null: none entered. */
export const $promotionCode = atom<string | null>(null);

export function setPromotionCode(code: string | null): void {
  $promotionCode.set(code);
}

/** The quote request for a dialog's item. */
export function quoteTarget(item: PurchaseItem) {
  return item.type === 'credits'
    ? { type: 'credits' as const, packageId: item.id }
    : { type: 'subscription' as const, planId: item.id, billingCycle: item.billingCycle };
}

export type { PromotionQuote };
