/**
 * A promotion code when a checkout is paid (run by fulfillment.ts inside its transaction): the
 * amount the provider reports as paid (Stripe's `amount_total`, after discounts) and its discount
 * become the checkout's; the use the checkout reserved is redeemed; a code typed in Stripe's own
 * field is matched back to ours by its promotion code id and recorded as a use. The ledger's
 * description names the code and what it took off.
 */
import type { Tx } from '../../../core/db.ts';
import type { CheckoutSessionRow } from '../../../db/schema.ts';
import { formatUsd } from '../../../../shared/promotions.ts';
import type { PaidCheckout } from '../providers/types.ts';
import * as repo from './repository.ts';

/**
 * Settles the code of a paid checkout (locked by the caller) and answers the checkout as paid:
 * its amount and discount as the provider reported them.
 */
export async function settlePromotion(
  tx: Tx,
  checkout: CheckoutSessionRow,
  paid: PaidCheckout,
): Promise<CheckoutSessionRow> {
  let settled = checkout;
  const reported =
    typeof paid.amountPaidCents === 'number'
      ? { amountCents: paid.amountPaidCents, discountCents: paid.discountCents ?? 0 }
      : null;
  let codeId = checkout.promotionCodeId;
  if (!codeId && paid.promotionCodeId && reported && reported.discountCents > 0) {
    // Typed in Stripe's own field: ours if we made it, recorded once per checkout.
    const code = await repo.findCodeByStripeId(tx, paid.promotionCodeId);
    if (code) {
      codeId = code.id;
      await repo.recordOutsideRedemption(tx, {
        codeId: code.id,
        userId: checkout.userId,
        checkoutId: checkout.id,
        discountCents: reported.discountCents,
      });
    }
  }
  if (
    reported &&
    (reported.amountCents !== checkout.amountCents ||
      reported.discountCents !== checkout.discountCents ||
      codeId !== checkout.promotionCodeId)
  ) {
    const changes = { ...reported, promotionCodeId: codeId };
    await repo.setCheckoutDiscount(tx, checkout.id, changes);
    settled = { ...checkout, ...changes };
  }
  if (checkout.promotionCodeId) await repo.redeem(tx, checkout.id);
  return settled;
}

/** " (code SPRING: −$4.00)" for a checkout a code discounted; "" otherwise. */
export async function promotionNote(tx: Tx, checkout: CheckoutSessionRow): Promise<string> {
  if (!checkout.promotionCodeId || checkout.discountCents <= 0) return '';
  const code = await repo.findCodeById(tx, checkout.promotionCodeId);
  return code ? ` (code ${code.code}: −${formatUsd(checkout.discountCents)})` : '';
}

/** A paid checkout that is refunded at once (a duplicate subscription) gives its use back. */
export const releasePromotion = (tx: Tx, checkoutId: string) => repo.releaseUse(tx, checkoutId);

/** The subscription a checkout started keeps the checkout's language (its receipts'). */
export const copyCheckoutLocale = (tx: Tx, subscriptionId: string, checkout: CheckoutSessionRow) =>
  repo.setSubscriptionLocale(tx, subscriptionId, checkout.locale);
