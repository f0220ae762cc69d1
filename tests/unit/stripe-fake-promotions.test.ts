/**
 * The Stripe fake's coupons and promotion codes (issue 37) against the stripe package's types
 * and Stripe's rules: the objects it answers with have the declared shape, a session with a
 * discount is sent with it, `discounts` and `allow_promotion_codes` never go together, and a
 * promotion code is made the way the pinned API version makes it (`promotion.coupon`).
 */
import { describe, expect, it } from 'vitest';
import { createSession } from '../fakes/stripe/checkout-sessions.ts';
import { ApiError } from '../fakes/stripe/errors.ts';
import type { FormObject } from '../fakes/stripe/form.ts';
import { routePromotions } from '../fakes/stripe/promotions.ts';
import { completeCheckout } from '../fakes/stripe/simulations.ts';
import { createStore } from '../fakes/stripe/state.ts';
import { eventInterfaceOf, problems } from '../helpers/stripe-wire-types.ts';

function setUp() {
  const store = createStore();
  store.url = 'http://127.0.0.1:1';
  const coupon = routePromotions(store, 'POST', '/v1/coupons', {
    duration: 'once',
    percent_off: '25',
    name: 'Spring',
  })!;
  const code = routePromotions(store, 'POST', '/v1/promotion_codes', {
    promotion: { type: 'coupon', coupon: String(coupon.id) },
    code: 'SPRING-25',
    max_redemptions: '1',
  })!;
  const session = (extra: FormObject) =>
    createSession(store, {
      mode: 'payment',
      success_url: 'https://app.example/ok',
      line_items: [
        {
          quantity: '1',
          price_data: { currency: 'usd', unit_amount: '4990', product_data: { name: 'Basic' } },
        },
      ],
      ...extra,
    });
  return { store, coupon, code, session };
}

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error.body.message;
    throw error;
  }
  return null;
};

describe('the Stripe fake’s coupons and promotion codes', () => {
  it('answers with a coupon and a promotion code of the declared shape', () => {
    const { coupon, code } = setUp();
    expect(problems(coupon, 'Coupon')).toEqual([]);
    expect(problems(code, 'PromotionCode')).toEqual([]);
    expect(code).toMatchObject({ code: 'SPRING-25', max_redemptions: 1, times_redeemed: 0 });
  });

  it('takes the discount off the session, sends it, and counts the redemption once paid', () => {
    const { store, code, session } = setUp();
    const created = session({ discounts: [{ promotion_code: String(code.id) }] });
    expect(created).toMatchObject({
      amount_subtotal: 4990,
      amount_total: 3742,
      total_details: { amount_discount: 1248 },
      discounts: [{ promotion_code: code.id }],
    });
    const [completed] = completeCheckout(store, String(created.id));
    expect(problems(completed!.event, eventInterfaceOf('checkout.session.completed'))).toEqual([]);
    const after = routePromotions(store, 'GET', `/v1/promotion_codes/${String(code.id)}`, {})!;
    expect(after.times_redeemed).toBe(1);
    // Used up (max 1): a new session cannot take it.
    expect(refusal(() => session({ discounts: [{ promotion_code: String(code.id) }] }))).toBe(
      'This promotion code has been redeemed the maximum number of times.',
    );
  });

  it('refuses what Stripe refuses', () => {
    const { store, coupon, code, session } = setUp();
    expect(
      refusal(() =>
        session({
          allow_promotion_codes: 'true',
          discounts: [{ promotion_code: String(code.id) }],
        }),
      ),
    ).toBe('You may only specify one of these parameters: allow_promotion_codes, discounts.');
    // The pinned API version names the coupon under `promotion`.
    expect(
      refusal(() =>
        routePromotions(store, 'POST', '/v1/promotion_codes', {
          coupon: String(coupon.id),
          code: 'OLD-SHAPE',
        }),
      ),
    ).toBe('Received unknown parameter: coupon');
    expect(
      refusal(() =>
        routePromotions(store, 'POST', '/v1/promotion_codes', {
          promotion: { type: 'coupon', coupon: String(coupon.id) },
          code: 'spring-25',
        }),
      ),
    ).toBe('An active promotion code with `code: spring-25` already exists.');
  });
});
