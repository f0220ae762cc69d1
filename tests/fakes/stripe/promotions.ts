/**
 * Coupons and promotion codes for the Stripe fake (API 2026-10-28.endive: a promotion code names
 * its coupon as `promotion: { type: 'coupon', coupon }`; the old top-level `coupon` is refused),
 * and how a Checkout Session applies one: `discounts: [{ promotion_code }]` at creation (never
 * with `allow_promotion_codes`), or a code the buyer types in the hosted page's own field
 * (`completeCheckout(…, { promotionCode })`). The session's `amount_total` is after the discount.
 */
import { ApiError, invalid, missingParam, noSuch } from './errors.ts';
import {
  checkKeys,
  createMetadata,
  isFormObject,
  readBool,
  readEnum,
  readHash,
  readInt,
  readMetadata,
  readString,
  type FormObject,
  type FormValue,
  type Json,
} from './form.ts';
import { newId, nowSeconds } from './ids.ts';
import type { SessionDiscount, StripeStore } from './state.ts';

interface CouponState {
  id: string;
  created: number;
  name: string | null;
  percentOff: number | null;
  amountOff: number | null;
  currency: string | null;
  duration: 'once' | 'repeating' | 'forever';
  metadata: Record<string, string>;
  timesRedeemed: number;
}

interface PromotionCodeState {
  id: string;
  created: number;
  code: string;
  coupon: string;
  active: boolean;
  maxRedemptions: number | null;
  expiresAt: number | null;
  firstTimeTransaction: boolean;
  metadata: Record<string, string>;
  timesRedeemed: number;
}

const stores = new WeakMap<
  StripeStore,
  { coupons: Map<string, CouponState>; codes: Map<string, PromotionCodeState> }
>();
function stateOf(store: StripeStore) {
  let state = stores.get(store);
  if (!state) {
    state = { coupons: new Map(), codes: new Map() };
    stores.set(store, state);
  }
  return state;
}

// prettier-ignore
const COUPON_PARAMS = [
  'amount_off', 'applies_to', 'currency', 'currency_options', 'duration', 'duration_in_months',
  'expand', 'id', 'max_redemptions', 'metadata', 'name', 'percent_off', 'redeem_by',
];
const COUPON_IMPLEMENTED = [
  'amount_off',
  'currency',
  'duration',
  'metadata',
  'name',
  'percent_off',
];
// prettier-ignore
const CODE_PARAMS = [
  'promotion', 'active', 'code', 'customer', 'customer_account', 'expand', 'expires_at',
  'max_redemptions', 'metadata', 'restrictions',
];
const CODE_IMPLEMENTED = [
  'promotion',
  'active',
  'code',
  'expires_at',
  'max_redemptions',
  'metadata',
  'restrictions',
];
// prettier-ignore
const RESTRICTION_PARAMS = ['currency_options', 'first_time_transaction', 'minimum_amount', 'minimum_amount_currency'];

function renderCoupon(c: CouponState): Json {
  return {
    id: c.id,
    object: 'coupon',
    amount_off: c.amountOff,
    created: c.created,
    currency: c.currency,
    duration: c.duration,
    duration_in_months: null,
    livemode: false,
    max_redemptions: null,
    metadata: c.metadata,
    name: c.name,
    percent_off: c.percentOff,
    redeem_by: null,
    times_redeemed: c.timesRedeemed,
    valid: true,
  };
}

function renderCode(store: StripeStore, p: PromotionCodeState): Json {
  const coupon = stateOf(store).coupons.get(p.coupon);
  return {
    id: p.id,
    object: 'promotion_code',
    active: p.active,
    code: p.code,
    created: p.created,
    customer: null,
    customer_account: null,
    expires_at: p.expiresAt,
    livemode: false,
    max_redemptions: p.maxRedemptions,
    metadata: p.metadata,
    promotion: { coupon: coupon ? renderCoupon(coupon) : p.coupon, type: 'coupon' },
    restrictions: {
      first_time_transaction: p.firstTimeTransaction,
      minimum_amount: null,
      minimum_amount_currency: null,
    },
    times_redeemed: p.timesRedeemed,
  };
}

function createCoupon(store: StripeStore, params: FormObject): Json {
  checkKeys(params, '', COUPON_PARAMS, COUPON_IMPLEMENTED);
  const percentOff = readInt(params, 'percent_off', '', 0) ?? null;
  const amountOff = readInt(params, 'amount_off', '', 1) ?? null;
  if ((percentOff === null) === (amountOff === null)) {
    throw invalid('You must pass exactly one of percent_off or amount_off.');
  }
  if (percentOff !== null && (percentOff <= 0 || percentOff > 100)) {
    throw invalid('Percent off must be greater than 0 and at most 100.', 'percent_off');
  }
  const currency = readString(params, 'currency', '') ?? null;
  if (amountOff !== null && !currency) {
    throw invalid('You must pass currency when passing amount_off.', 'currency');
  }
  const coupon: CouponState = {
    id: newId('co', 8),
    created: nowSeconds(),
    name: readString(params, 'name', '') ?? null,
    percentOff,
    amountOff,
    currency,
    duration: readEnum(params, 'duration', '', ['forever', 'once', 'repeating']) ?? 'once',
    metadata: createMetadata(readMetadata(params, 'metadata', '')),
    timesRedeemed: 0,
  };
  stateOf(store).coupons.set(coupon.id, coupon);
  return renderCoupon(coupon);
}

function createPromotionCode(store: StripeStore, params: FormObject): Json {
  checkKeys(params, '', CODE_PARAMS, CODE_IMPLEMENTED);
  const promotion = readHash(params, 'promotion', '');
  if (!promotion) throw missingParam('promotion');
  checkKeys(promotion, 'promotion', ['coupon', 'type'], ['coupon', 'type']);
  if (readEnum(promotion, 'type', 'promotion', ['coupon']) === undefined) {
    throw missingParam('promotion[type]');
  }
  const couponId = readString(promotion, 'coupon', 'promotion');
  if (!couponId) throw missingParam('promotion[coupon]');
  const state = stateOf(store);
  if (!state.coupons.has(couponId)) throw noSuch('coupon', couponId, 'promotion[coupon]');
  const code = readString(params, 'code', '') ?? newId('PROMO', 8).toUpperCase();
  if (!/^[A-Za-z0-9-]+$/.test(code)) {
    throw invalid('Promotion codes may contain only letters, digits and dashes.', 'code');
  }
  const taken = [...state.codes.values()].some(
    (p) => p.active && p.code.toLowerCase() === code.toLowerCase(),
  );
  if (taken) {
    throw invalid(`An active promotion code with \`code: ${code}\` already exists.`, 'code');
  }
  const restrictions = readHash(params, 'restrictions', '') ?? {};
  checkKeys(restrictions, 'restrictions', RESTRICTION_PARAMS, ['first_time_transaction']);
  const p: PromotionCodeState = {
    id: newId('promo', 24),
    created: nowSeconds(),
    code,
    coupon: couponId,
    active: readBool(params, 'active', '') ?? true,
    maxRedemptions: readInt(params, 'max_redemptions', '', 1) ?? null,
    expiresAt: readInt(params, 'expires_at', '') ?? null,
    firstTimeTransaction: readBool(restrictions, 'first_time_transaction', 'restrictions') ?? false,
    metadata: createMetadata(readMetadata(params, 'metadata', '')),
    timesRedeemed: 0,
  };
  state.codes.set(p.id, p);
  return renderCode(store, p);
}

function getCode(store: StripeStore, id: string): PromotionCodeState {
  const p = stateOf(store).codes.get(id);
  if (!p) throw noSuch('promotion code', id, 'id');
  return p;
}

/** `/v1/coupons…` and `/v1/promotion_codes…`; null for any other path. */
export function routePromotions(
  store: StripeStore,
  method: string,
  path: string,
  params: FormObject,
): Json | null {
  let m: RegExpExecArray | null;
  if (path === '/v1/coupons' && method === 'POST') return createCoupon(store, params);
  if ((m = /^\/v1\/coupons\/([^/]+)$/.exec(path)) && method === 'GET') {
    const id = decodeURIComponent(m[1] ?? '');
    const coupon = stateOf(store).coupons.get(id);
    if (!coupon) throw noSuch('coupon', id, 'id');
    return renderCoupon(coupon);
  }
  if (path === '/v1/promotion_codes' && method === 'POST') {
    return createPromotionCode(store, params);
  }
  if ((m = /^\/v1\/promotion_codes\/([^/]+)$/.exec(path))) {
    const p = getCode(store, decodeURIComponent(m[1] ?? ''));
    if (method === 'GET') return renderCode(store, p);
    if (method === 'POST') {
      checkKeys(params, '', ['active', 'expand', 'metadata', 'restrictions'], ['active']);
      p.active = readBool(params, 'active', '') ?? p.active;
      return renderCode(store, p);
    }
  }
  return null;
}

/** Why a code cannot be redeemed now (Stripe's words), or null. */
function refusal(p: PromotionCodeState): string | null {
  if (!p.active) return 'This promotion code is inactive.';
  if (p.expiresAt !== null && p.expiresAt <= nowSeconds())
    return 'This promotion code has expired.';
  if (p.maxRedemptions !== null && p.timesRedeemed >= p.maxRedemptions) {
    return 'This promotion code has been redeemed the maximum number of times.';
  }
  return null;
}

function discountOf(store: StripeStore, p: PromotionCodeState, subtotal: number): SessionDiscount {
  const coupon = stateOf(store).coupons.get(p.coupon);
  if (!coupon) throw noSuch('coupon', p.coupon, 'discounts');
  const off =
    coupon.percentOff !== null
      ? Math.round((subtotal * coupon.percentOff) / 100)
      : Math.min(coupon.amountOff ?? 0, subtotal);
  return { promotionCode: p.id, coupon: coupon.id, amount: off };
}

/**
 * The discount a session is created with (`discounts`), checked as Stripe checks it: one
 * discount, a redeemable promotion code, and never together with `allow_promotion_codes`.
 */
export function sessionDiscount(
  store: StripeStore,
  discounts: FormValue[] | undefined,
  allowPromotionCodes: boolean | undefined,
  subtotal: number,
): SessionDiscount | null {
  if (discounts === undefined || discounts.length === 0) return null;
  if (allowPromotionCodes !== undefined) {
    throw invalid(
      'You may only specify one of these parameters: allow_promotion_codes, discounts.',
    );
  }
  if (discounts.length > 1) throw invalid('You may only apply one discount.', 'discounts');
  const [entry] = discounts;
  if (!entry || !isFormObject(entry)) throw invalid('Invalid object', 'discounts[0]');
  checkKeys(entry, 'discounts[0]', ['coupon', 'promotion_code'], ['promotion_code']);
  const id = readString(entry, 'promotion_code', 'discounts[0]');
  if (!id) throw missingParam('discounts[0][promotion_code]');
  const p = stateOf(store).codes.get(id);
  if (!p) throw noSuch('promotion code', id, 'discounts[0][promotion_code]');
  const why = refusal(p);
  if (why) throw invalid(why, 'discounts[0][promotion_code]');
  return discountOf(store, p, subtotal);
}

/**
 * The buyer types `code` in the hosted page's own field (the session allowed it): the discount
 * it gives; the buyer's payment history decides a first-time-only code.
 */
export function typedDiscount(
  store: StripeStore,
  code: string,
  subtotal: number,
  customerHasPaid: boolean,
): SessionDiscount {
  const p = [...stateOf(store).codes.values()].find(
    (c) => c.active && c.code.toLowerCase() === code.toLowerCase(),
  );
  const why = p
    ? (refusal(p) ??
      (p.firstTimeTransaction && customerHasPaid
        ? 'This promotion code is only valid for first-time customers.'
        : null))
    : 'This code is invalid.';
  if (!p || why) throw new ApiError(400, { type: 'invalid_request_error', message: why ?? '' });
  return discountOf(store, p, subtotal);
}

/** A paid session's code counts a redemption. */
export function redeemDiscount(store: StripeStore, discount: SessionDiscount | null): void {
  if (!discount?.promotionCode) return;
  const state = stateOf(store);
  const p = state.codes.get(discount.promotionCode);
  if (p) p.timesRedeemed += 1;
  const coupon = state.coupons.get(discount.coupon);
  if (coupon) coupon.timesRedeemed += 1;
}

/** The session's `discounts` on the wire. */
export const renderDiscounts = (discount: SessionDiscount | null): Json[] =>
  discount ? [{ coupon: discount.coupon, promotion_code: discount.promotionCode }] : [];
