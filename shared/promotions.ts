/**
 * Promotion codes (issue 37, item 1), for the site and the server alike: what a code looks like,
 * what it may discount, and how much it takes off a price. The rules of reserving and redeeming
 * a code are in server/domains/billing/promotions/; the tables in server/db/money-schema.ts.
 */
import type { BillingCycle } from './billing.ts';

/** What a code may discount: credit packs, plans, or both. */
export const PROMOTION_TARGETS = ['packs', 'plans', 'all'] as const;
export type PromotionTarget = (typeof PROMOTION_TARGETS)[number];

/**
 * A code: letters, digits and dashes, 3 to 32 of them, starting with a letter or a digit
 * (Stripe's promotion codes allow exactly these characters, so one code works in both places).
 */
const PROMOTION_CODE_PATTERN = '^[A-Za-z0-9][A-Za-z0-9-]{2,31}$';
export const PROMOTION_CODE_MAX_LENGTH = 32;
const CODE = new RegExp(PROMOTION_CODE_PATTERN);

export const isPromotionCode = (text: string): boolean => CODE.test(text);

/** The key a code is matched on: codes are case-insensitive. */
export const promotionCodeKey = (code: string): string => code.trim().toLowerCase();

/** Whether a code for `target` discounts a purchase of `kind`. */
export const promotionApplies = (target: PromotionTarget, kind: 'subscription' | 'credits') =>
  target === 'all' || (target === 'plans' ? kind === 'subscription' : kind === 'credits');

/** Percent or amount off, as a code states it. */
export interface PromotionDiscount {
  percentOff: number | null;
  amountOffCents: number | null;
}

/**
 * What a code takes off a price of `listCents` (cents): a percentage rounded to the cent as
 * Stripe rounds it, or a fixed amount, never more than the price.
 */
export function discountCents(listCents: number, discount: PromotionDiscount): number {
  const off =
    discount.percentOff !== null
      ? Math.round((listCents * discount.percentOff) / 100)
      : (discount.amountOffCents ?? 0);
  return Math.max(0, Math.min(listCents, off));
}

/** "$4.00": cents as the pricing dialog and the ledger write them. */
export const formatUsd = (cents: number): string => `$${(cents / 100).toFixed(2)}`;

/** What a code does to one purchase (`GET /api/stripe/promotion-codes/{code}`), in dollars. */
export interface PromotionQuote {
  /** The code as the admin wrote it. */
  code: string;
  type: 'subscription' | 'credits';
  item_id: string;
  billing_cycle: BillingCycle | null;
  percent_off: number | null;
  amount_off: number | null;
  /** What the code discounts: credit packs, plans, or both. */
  applies_to: PromotionTarget;
  /** The list price, the discount and what the customer pays (currency units: 29.9 is $29.90). */
  price: number;
  discount: number;
  price_after: number;
  currency: string;
}

/** A code as the admin sees it (amounts in dollars). */
export interface AdminPromotionCode {
  id: string;
  code: string;
  percent_off: number | null;
  amount_off: number | null;
  applies_to: PromotionTarget;
  first_purchase_only: boolean;
  max_redemptions: number | null;
  /** Reserved by open checkouts and redeemed by paid ones. */
  redemptions: number;
  expires_at: string | null;
  active: boolean;
  stripe_promotion_code_id: string | null;
  created_at: string;
}

/** One use of a code. */
export interface AdminPromotionRedemption {
  id: string;
  user_id: string;
  email: string | null;
  checkout_id: string;
  discount: number;
  status: 'reserved' | 'redeemed' | 'released';
  created_at: string;
  redeemed_at: string | null;
}

/** `POST /api/admin/promotion-codes`. */
export interface CreatePromotionCodeRequest {
  code: string;
  percent_off?: number;
  /** USD. */
  amount_off?: number;
  applies_to: PromotionTarget;
  first_purchase_only?: boolean;
  max_redemptions?: number | null;
  /** ISO 8601; null or absent: never. */
  expires_at?: string | null;
}
