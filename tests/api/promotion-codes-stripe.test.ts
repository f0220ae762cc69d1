/**
 * Promotion codes through Stripe (the fake, on API 2026-10-28.endive), on PGlite and PostgreSQL:
 * a code makes its coupon and promotion code at Stripe; a checkout with a code sends `discounts`
 * (else `allow_promotion_codes`); the webhook's `amount_total` is what is recorded as paid; a
 * code typed in Stripe's own field is matched back and counted; an expired session gives its
 * use back; switching a code off switches it off at Stripe.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeFake, type SignedEvent, type StripeFake } from '../fakes/stripe/index.ts';
import { bearer, createTestApp, signInAdmin, signInLocal, type TestApp } from '../helpers/app.ts';
import { requestCheckout, stripeEnv, injectStripeEvent } from '../helpers/billing.ts';
import { databaseKinds } from '../helpers/database.ts';
import { checkoutRow, codeRow, madeCode, usesOf } from '../helpers/promotions.ts';

describe.each(databaseKinds)('promotion codes through Stripe (fake) on %s', (kind) => {
  let stripe: StripeFake;
  let t: TestApp;
  let admin: string;
  let users = 0;
  const newBuyer = () => signInLocal(t.app, `stripe-promo-${++users}@example.com`);

  beforeAll(async () => {
    stripe = await startStripeFake();
    t = await createTestApp(kind, { env: stripeEnv(stripe) });
    admin = await signInAdmin(t.app);
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  const deliver = async (events: SignedEvent[]) => {
    for (const signed of events) {
      const res = await injectStripeEvent(t.app, signed);
      expect(res.statusCode, res.body).toBe(200);
    }
  };
  const sessionRequests = () =>
    stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions');
  const buy = async (token: string, payload: object) => {
    const res = await requestCheckout(t.app, token, payload);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { sessionId: string }).sessionId;
  };

  it('creates the coupon and the promotion code at Stripe in the pinned API shape', async () => {
    const code = await madeCode(t.app, admin, {
      code: 'Launch-25',
      percent_off: 25,
      applies_to: 'all',
      first_purchase_only: true,
      max_redemptions: 50,
      expires_at: '2099-06-30T00:00:00Z',
    });
    const coupon = stripe.requests.find((r) => r.method === 'POST' && r.path === '/v1/coupons');
    expect(coupon?.body).toEqual({
      duration: 'once',
      name: 'Launch-25',
      percent_off: '25',
      metadata: { promotionId: code.id },
    });
    const promo = stripe.requests.find(
      (r) => r.method === 'POST' && r.path === '/v1/promotion_codes',
    );
    expect(promo?.body).toEqual({
      promotion: { type: 'coupon', coupon: expect.stringMatching(/^co_/) },
      code: 'Launch-25',
      max_redemptions: '50',
      expires_at: String(Date.parse('2099-06-30T00:00:00Z') / 1000),
      restrictions: { first_time_transaction: 'true' },
      metadata: { promotionId: code.id },
    });
    expect(code.stripe_promotion_code_id).toMatch(/^promo_/);

    await madeCode(t.app, admin, { code: 'TEN-DOLLARS', amount_off: 10, applies_to: 'plans' });
    const amountCoupon = stripe.requests.filter((r) => r.path === '/v1/coupons').at(-1);
    expect(amountCoupon?.body).toMatchObject({
      duration: 'once',
      amount_off: '1000',
      currency: 'usd',
    });
  });

  it('sends `discounts` for a code entered on our page and records the amount_total paid', async () => {
    const buyer = await newBuyer();
    const sessionId = await buy(buyer.token, {
      type: 'credits',
      package_id: 'basic',
      amount: 49.9,
      promotion_code: 'launch-25',
      locale: 'zh-CN',
    });
    const request = sessionRequests().at(-1)!;
    const reserved = await checkoutRow(t.database.db, sessionId);
    const stripeCode = (await codeRow(t.database.db, reserved.promotionCodeId!))
      .stripePromotionCodeId;
    expect(stripeCode).toMatch(/^promo_/);
    expect(request.body).toMatchObject({
      discounts: [{ promotion_code: stripeCode }],
      locale: 'zh',
      line_items: [{ price_data: { unit_amount: '4990' } }],
    });
    expect(request.body).not.toHaveProperty('allow_promotion_codes');
    expect(reserved).toMatchObject({ amountCents: 3742, discountCents: 1248, locale: 'zh-CN' });

    const events = stripe.completeCheckout(sessionId);
    const completed = events.find((e) => e.event.type === 'checkout.session.completed')!;
    const session = completed.event.data.object as {
      amount_total: number;
      total_details: { amount_discount: number };
    };
    expect(session.amount_total).toBe(3742);
    expect(session.total_details.amount_discount).toBe(1248);
    await deliver(events);
    expect(await checkoutRow(t.database.db, sessionId)).toMatchObject({
      status: 'paid',
      amountCents: 3742,
      discountCents: 1248,
    });
    const uses = await usesOf(t.database.db, reserved.promotionCodeId!);
    expect(uses).toMatchObject([{ checkoutId: sessionId, status: 'redeemed' }]);
  });

  it("allows Stripe's own field when no code was entered, and matches a code typed there", async () => {
    const buyer = await newBuyer();
    const sessionId = await buy(buyer.token, {
      type: 'subscription',
      plan_id: 'pro',
      billing_cycle: 'monthly',
    });
    const request = sessionRequests().at(-1)!;
    expect(request.body).toMatchObject({ allow_promotion_codes: 'true' });
    expect(request.body).not.toHaveProperty('discounts');
    expect(await checkoutRow(t.database.db, sessionId)).toMatchObject({
      amountCents: 5990,
      discountCents: 0,
      promotionCodeId: null,
    });

    const events = stripe.completeCheckout(sessionId, {}, { promotionCode: 'ten-dollars' });
    const invoice = events.find((e) => e.event.type === 'invoice.paid')!.event.data.object as {
      amount_paid: number;
    };
    expect(invoice.amount_paid).toBe(4990);
    await deliver(events);
    const paid = await checkoutRow(t.database.db, sessionId);
    expect(paid).toMatchObject({ status: 'paid', amountCents: 4990, discountCents: 1000 });
    const code = await codeRow(t.database.db, paid.promotionCodeId!);
    expect(code.code).toBe('TEN-DOLLARS');
    expect(code.redemptions).toBe(1);
    expect(await usesOf(t.database.db, code.id)).toMatchObject([
      { checkoutId: sessionId, status: 'redeemed', discountCents: 1000 },
    ]);
    // A replayed delivery counts nothing twice.
    await deliver(events);
    expect((await codeRow(t.database.db, code.id)).redemptions).toBe(1);
  });

  it('gives the use back when the session expires unpaid', async () => {
    const code = await madeCode(t.app, admin, {
      code: 'ONE-USE',
      percent_off: 10,
      applies_to: 'packs',
      max_redemptions: 1,
    });
    const first = await newBuyer();
    const sessionId = await buy(first.token, {
      type: 'credits',
      package_id: 'starter',
      promotion_code: 'ONE-USE',
    });
    const second = await newBuyer();
    const refused = await requestCheckout(t.app, second.token, {
      type: 'credits',
      package_id: 'starter',
      promotion_code: 'one-use',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'PROMOTION_CODE_USED_UP' });

    await deliver(stripe.expireCheckout(sessionId));
    expect((await checkoutRow(t.database.db, sessionId)).status).toBe('expired');
    expect((await codeRow(t.database.db, code.id)).redemptions).toBe(0);
    expect(await usesOf(t.database.db, code.id)).toMatchObject([{ status: 'released' }]);
    await buy(second.token, { type: 'credits', package_id: 'starter', promotion_code: 'one-use' });
  });

  it('switches a code off at Stripe too', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/admin/promotion-codes/LAUNCH-25',
      headers: bearer(admin),
      payload: { active: false },
    });
    expect(res.statusCode).toBe(200);
    const id = (res.json() as { data: { stripe_promotion_code_id: string } }).data
      .stripe_promotion_code_id;
    const update = stripe.requests.find(
      (r) => r.method === 'POST' && r.path === `/v1/promotion_codes/${id}`,
    );
    expect(update?.body).toEqual({ active: 'false' });
  });
});
