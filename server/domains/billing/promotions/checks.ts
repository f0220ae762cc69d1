/**
 * Whether a code may discount one purchase, and by how much: the same checks answer the pricing
 * page's question before checkout (`quote`) and run again under the code row's lock when the
 * checkout reserves a use (`reserveIn`), so ten buyers racing for a code's last use never take
 * more uses than it allows. A refusal is a 4xx naming the code and what to do.
 */
import { AppError, badRequest, notFound } from '../../../core/errors.ts';
import type { Tx } from '../../../core/db.ts';
import type { PromotionCodeRow } from '../../../db/schema.ts';
import { msg } from '../../../core/api-messages.ts';
import { CURRENCY, type BillingCycle } from '../../../../shared/billing.ts';
import {
  discountCents,
  formatUsd,
  isPromotionCode,
  promotionApplies,
  promotionCodeKey,
  type PromotionQuote,
} from '../../../../shared/promotions.ts';
import type { BillingContext } from '../context.ts';
import * as repo from './repository.ts';

/** Stripe's smallest card charge in USD: a discounted total is 0 or at least this. */
const MIN_CHARGE_CENTS = 50;

/** The purchase a code is checked against, priced on the server. */
export interface PricedItem {
  kind: 'subscription' | 'credits';
  itemId: string;
  billingCycle: BillingCycle | null;
  /** The list price, in cents. */
  listCents: number;
}

/** A code that passed: its row and what it takes off the item. */
export interface AppliedCode {
  code: PromotionCodeRow;
  discountCents: number;
}

const invalidFormat = (code: string) =>
  badRequest(
    msg('promotion.invalid_format', { code: code.slice(0, 40) }),
    'PROMOTION_CODE_INVALID',
  );

/**
 * Why `row` may not discount `item` for `userId` now (null: it may). `typed` is the code as the
 * customer typed it (the messages repeat it).
 */
async function refusal(
  tx: Tx | BillingContext['db'],
  row: PromotionCodeRow | null,
  typed: string,
  item: PricedItem,
  userId: string,
  providerName: 'stripe' | 'local',
): Promise<AppError | null> {
  // A code made before Stripe was configured has no promotion code there to apply.
  if (!row || (providerName === 'stripe' && !row.stripePromotionCodeId)) {
    return notFound(msg('promotion.not_found', { code: typed }), 'PROMOTION_CODE_NOT_FOUND');
  }
  const code = row.code;
  if (!row.active) {
    return new AppError(409, 'PROMOTION_CODE_INACTIVE', msg('promotion.inactive', { code }));
  }
  if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) {
    const date = row.expiresAt.toISOString().slice(0, 10);
    return new AppError(409, 'PROMOTION_CODE_EXPIRED', msg('promotion.expired', { code, date }));
  }
  if (row.maxRedemptions !== null && row.redemptions >= row.maxRedemptions) {
    return new AppError(409, 'PROMOTION_CODE_USED_UP', msg('promotion.used_up', { code }));
  }
  if (!promotionApplies(row.appliesTo, item.kind)) {
    return badRequest(
      msg('promotion.not_applicable', { code, target: row.appliesTo }),
      'PROMOTION_CODE_NOT_APPLICABLE',
    );
  }
  if (row.firstPurchaseOnly && (await repo.hasPaidCheckout(tx, userId))) {
    return new AppError(
      409,
      'PROMOTION_FIRST_PURCHASE_ONLY',
      msg('promotion.first_purchase_only', { code }),
    );
  }
  const total = item.listCents - discountCents(item.listCents, row);
  if (total > 0 && total < MIN_CHARGE_CENTS) {
    return badRequest(
      msg('promotion.total_too_small', {
        code,
        total: formatUsd(total),
        minimum: formatUsd(MIN_CHARGE_CENTS),
      }),
      'PROMOTION_TOTAL_TOO_SMALL',
    );
  }
  return null;
}

export function createPromotionChecks({ db, provider }: Pick<BillingContext, 'db' | 'provider'>) {
  /** The code `typed` for `item`, checked without locks (a clear answer before any checkout). */
  async function apply(userId: string, typed: string, item: PricedItem): Promise<AppliedCode> {
    const text = typed.trim();
    if (!isPromotionCode(text)) throw invalidFormat(text);
    const row = await repo.findCodeByKey(db, promotionCodeKey(text));
    const refused = await refusal(db, row, text, item, userId, provider.name);
    if (refused || !row) throw refused ?? invalidFormat(text);
    return { code: row, discountCents: discountCents(item.listCents, row) };
  }

  return {
    apply,

    /** `GET /api/stripe/promotion-codes/{code}`: the price before and after the code. */
    async quote(userId: string, typed: string, item: PricedItem): Promise<PromotionQuote> {
      const { code, discountCents: off } = await apply(userId, typed, item);
      return {
        code: code.code,
        type: item.kind,
        item_id: item.itemId,
        billing_cycle: item.billingCycle,
        percent_off: code.percentOff,
        amount_off: code.amountOffCents === null ? null : code.amountOffCents / 100,
        applies_to: code.appliesTo,
        price: item.listCents / 100,
        discount: off / 100,
        price_after: (item.listCents - off) / 100,
        currency: CURRENCY,
      };
    },

    /**
     * Reserves a use of `applied.code` for checkout `checkoutId` inside `tx` (the transaction that
     * records the checkout): locks the code row, checks again, records the use and counts it.
     * Answers the refusal instead when the code can no longer be used (the caller records the
     * checkout closed and expires it at the provider).
     */
    async reserveIn(
      tx: Tx,
      applied: AppliedCode,
      use: { userId: string; checkoutId: string; item: PricedItem },
    ): Promise<AppError | null> {
      const row = await repo.findCodeByKey(tx, applied.code.codeKey, { forUpdate: true });
      const refused = await refusal(
        tx,
        row,
        applied.code.code,
        use.item,
        use.userId,
        provider.name,
      );
      if (refused || !row) return refused;
      // Two checkouts at once (two tabs) would both be a first purchase when paid: a
      // first-purchase code goes to one open checkout at a time (the caller holds the user's
      // billing lock, so two of them cannot both pass this).
      if (row.firstPurchaseOnly && (await repo.holdsOpenFirstPurchaseUse(tx, use.userId))) {
        return new AppError(
          409,
          'PROMOTION_FIRST_PURCHASE_IN_PROGRESS',
          msg('promotion.first_purchase_in_progress', { code: row.code }),
        );
      }
      await repo.reserve(tx, {
        codeId: row.id,
        userId: use.userId,
        checkoutId: use.checkoutId,
        discountCents: applied.discountCents,
      });
      return null;
    },
  };
}

export type PromotionChecks = ReturnType<typeof createPromotionChecks>;
