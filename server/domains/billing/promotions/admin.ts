/**
 * The admin's promotion codes (issue 37, item 1): create (with Stripe, its coupon and promotion
 * code are made there first, so a code never exists here that Stripe cannot apply), list,
 * turn on or off, and a code's uses. Each change writes its admin_actions row in the same
 * transaction as the change.
 */
import { decodeCursor } from '../../../core/cursor.ts';
import { AppError, badRequest, conflict, notFound } from '../../../core/errors.ts';
import type { PromotionCodeRow, PromotionRedemptionRow } from '../../../db/schema.ts';
import { msg } from '../../../core/api-messages.ts';
import { CURRENCY } from '../../../../shared/billing.ts';
import {
  isPromotionCode,
  promotionCodeKey,
  type AdminPromotionCode,
  type AdminPromotionRedemption,
  type CreatePromotionCodeRequest,
} from '../../../../shared/promotions.ts';
import type { BillingContext } from '../context.ts';
import * as repo from './repository.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toAdminCode(row: PromotionCodeRow): AdminPromotionCode {
  return {
    id: row.id,
    code: row.code,
    percent_off: row.percentOff,
    amount_off: row.amountOffCents === null ? null : row.amountOffCents / 100,
    applies_to: row.appliesTo,
    first_purchase_only: row.firstPurchaseOnly,
    max_redemptions: row.maxRedemptions,
    redemptions: row.redemptions,
    expires_at: iso(row.expiresAt),
    active: row.active,
    stripe_promotion_code_id: row.stripePromotionCodeId,
    created_at: row.createdAt.toISOString(),
  };
}

function toAdminRedemption(
  row: PromotionRedemptionRow,
  email: string | null,
): AdminPromotionRedemption {
  return {
    id: row.id,
    user_id: row.userId,
    email,
    checkout_id: row.checkoutId,
    discount: row.discountCents / 100,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    redeemed_at: iso(row.redeemedAt),
  };
}

/** The code's text, checked (400 naming the rule). */
function checkedCode(typed: string): string {
  const code = typed.trim();
  if (!isPromotionCode(code)) {
    throw badRequest(
      msg('promotion.invalid_format', { code: code.slice(0, 40) }),
      'PROMOTION_CODE_INVALID',
    );
  }
  return code;
}

function checkedExpiry(text: string | null | undefined): Date | null {
  if (text === null || text === undefined || text === '') return null;
  const at = new Date(text);
  if (Number.isNaN(at.getTime())) {
    throw badRequest(msg('promotion.expiry_invalid'), 'PROMOTION_EXPIRY_INVALID');
  }
  if (at.getTime() <= Date.now()) {
    throw badRequest(msg('promotion.expiry_past'), 'PROMOTION_EXPIRY_PAST');
  }
  return at;
}

export function createPromotionAdmin({ db, provider, log }: BillingContext) {
  async function codeOr404(typed: string): Promise<PromotionCodeRow> {
    const row = isPromotionCode(typed.trim())
      ? await repo.findCodeByKey(db, promotionCodeKey(typed))
      : null;
    if (!row) {
      throw notFound(
        msg('promotion.admin_not_found', { code: typed.slice(0, 40) }),
        'PROMOTION_CODE_NOT_FOUND',
      );
    }
    return row;
  }

  return {
    /** `POST /api/admin/promotion-codes`. */
    async create(
      actor: { name: string; userId: string },
      input: CreatePromotionCodeRequest,
    ): Promise<AdminPromotionCode> {
      const code = checkedCode(input.code);
      const hasPercent = input.percent_off !== undefined;
      const hasAmount = input.amount_off !== undefined;
      if (hasPercent === hasAmount) {
        throw badRequest(msg('promotion.one_discount'), 'PROMOTION_ONE_DISCOUNT');
      }
      const amountOffCents = hasAmount ? Math.round((input.amount_off ?? 0) * 100) : null;
      if (amountOffCents !== null && amountOffCents < 1) {
        throw badRequest(msg('promotion.one_discount'), 'PROMOTION_ONE_DISCOUNT');
      }
      const key = promotionCodeKey(code);
      const taken = () => conflict(msg('promotion.code_taken', { code }), 'PROMOTION_CODE_TAKEN');
      if (await repo.findCodeByKey(db, key)) throw taken();
      const row = {
        id: crypto.randomUUID(),
        code,
        codeKey: key,
        percentOff: hasPercent ? (input.percent_off ?? null) : null,
        amountOffCents,
        appliesTo: input.applies_to,
        firstPurchaseOnly: input.first_purchase_only ?? false,
        maxRedemptions: input.max_redemptions ?? null,
        expiresAt: checkedExpiry(input.expires_at),
        createdBy: actor.userId,
      };
      // Made at Stripe first (never inside a transaction): a refusal there saves nothing here.
      let atProvider: { couponId: string; promotionCodeId: string } | null;
      try {
        atProvider = await provider.createPromotion({ ...row, currency: CURRENCY });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        log.warn({ err: reason, code }, 'promotion code refused by the provider');
        throw new AppError(
          502,
          'PROMOTION_PROVIDER_REFUSED',
          msg('promotion.stripe_refused', { reason }),
        );
      }
      const saved = await db.transaction(async (tx) => {
        const inserted = await repo.insertCode(tx, {
          ...row,
          stripeCouponId: atProvider?.couponId ?? null,
          stripePromotionCodeId: atProvider?.promotionCodeId ?? null,
        });
        if (!inserted) return null;
        await repo.insertAdminAction(tx, {
          admin: actor.name,
          action: 'promotion_code.create',
          targetId: inserted.id,
          details: {
            code,
            percent_off: inserted.percentOff,
            amount_off_cents: inserted.amountOffCents,
            applies_to: inserted.appliesTo,
            first_purchase_only: inserted.firstPurchaseOnly,
            max_redemptions: inserted.maxRedemptions,
            expires_at: iso(inserted.expiresAt),
          },
        });
        return inserted;
      });
      if (!saved) {
        // Another admin saved the same code a moment ago: ours at Stripe is switched off.
        if (atProvider) await provider.setPromotionActive(atProvider.promotionCodeId, false);
        throw taken();
      }
      return toAdminCode(saved);
    },

    /** `GET /api/admin/promotion-codes`: newest first, a keyset page. */
    async list(page: { limit: number; cursor?: string | undefined }) {
      const after = page.cursor ? decodeCursor(page.cursor, 'uuid') : null;
      const found = await repo.listCodes(db, page.limit, after);
      return {
        codes: found.rows.map(({ row }) => toAdminCode(row)),
        next_cursor: found.next_cursor,
        has_more: found.has_more,
      };
    },

    /** `PATCH /api/admin/promotion-codes/{code}`: on or off, here and at Stripe. */
    async setActive(actorName: string, typed: string, active: boolean) {
      const before = await codeOr404(typed);
      if (before.active === active) return toAdminCode(before);
      // Stripe first: a code switched off here but still usable in Stripe's field would leak.
      if (before.stripePromotionCodeId) {
        try {
          await provider.setPromotionActive(before.stripePromotionCodeId, active);
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          log.warn(
            { err: reason, code: before.code },
            'promotion code change refused by the provider',
          );
          throw new AppError(
            502,
            'PROMOTION_PROVIDER_REFUSED',
            msg('promotion.stripe_refused', { reason }),
          );
        }
      }
      const row = await db.transaction(async (tx) => {
        const updated = await repo.setCodeActive(tx, before.id, active);
        await repo.insertAdminAction(tx, {
          admin: actorName,
          action: active ? 'promotion_code.activate' : 'promotion_code.deactivate',
          targetId: before.id,
          details: { code: before.code, active, previous: before.active },
        });
        return updated ?? before;
      });
      return toAdminCode(row);
    },

    /** `GET /api/admin/promotion-codes/{code}/redemptions`: newest first, a keyset page. */
    async redemptions(typed: string, page: { limit: number; cursor?: string | undefined }) {
      const code = await codeOr404(typed);
      const after = page.cursor ? decodeCursor(page.cursor, 'uuid') : null;
      const found = await repo.listRedemptions(db, code.id, page.limit, after);
      return {
        code: toAdminCode(code),
        redemptions: found.rows.map(({ row, email }) => toAdminRedemption(row, email)),
        next_cursor: found.next_cursor,
        has_more: found.has_more,
      };
    },
  };
}

export type PromotionAdmin = ReturnType<typeof createPromotionAdmin>;
