/**
 * Promotion codes (issue 37, item 1) with the local checkout, on PGlite and PostgreSQL: the
 * admin's codes, the pricing page's check, percent and amount off, case-insensitivity, expiry,
 * inactive codes, first purchase only, ten parallel checkouts on a code of three uses, a
 * cancelled checkout giving its use back, and the ledger naming the code.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminActions, creditTransactions, subscriptions } from '../../server/db/schema.ts';
import {
  bearer,
  createTestApp,
  creditBalance,
  signInAdmin,
  signInLocal,
  type TestApp,
} from '../helpers/app.ts';
import { submitLocalCheckout } from '../helpers/billing.ts';
import { databaseKinds } from '../helpers/database.ts';
import { QUOTES_PER_MINUTE } from '../../server/domains/billing/promotions/routes.ts';
import {
  checkoutRow,
  codeRow,
  createCode,
  madeCode,
  quote,
  usesOf,
} from '../helpers/promotions.ts';

const STARTER = 'type=credits&package_id=starter';

describe.each(databaseKinds)('promotion codes with the local checkout on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  let users = 0;
  const newBuyer = () => signInLocal(t.app, `promo-buyer-${++users}@example.com`);

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await signInAdmin(t.app);
  });
  afterAll(() => t.close());

  const buy = async (token: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/stripe/create-payment-intent',
      headers: { ...bearer(token), ...headers },
      payload: {
        success_url: '/pricing?payment=success&session_id={CHECKOUT_SESSION_ID}',
        cancel_url: '/pricing?payment=cancelled',
        ...payload,
      },
    });

  it('lets only the admin create codes, checks their shape, and keeps them case-insensitive', async () => {
    const buyer = await newBuyer();
    const asCustomer = await createCode(t.app, buyer.token, {
      code: 'NOPE',
      percent_off: 10,
      applies_to: 'all',
    });
    expect(asCustomer.statusCode).toBe(403);

    const spring = await madeCode(t.app, admin, {
      code: 'Spring-20',
      percent_off: 20,
      applies_to: 'all',
    });
    expect(spring).toMatchObject({
      code: 'Spring-20',
      percent_off: 20,
      amount_off: null,
      applies_to: 'all',
      first_purchase_only: false,
      max_redemptions: null,
      redemptions: 0,
      active: true,
      stripe_promotion_code_id: null,
    });
    const again = await createCode(t.app, admin, {
      code: 'SPRING-20',
      amount_off: 5,
      applies_to: 'packs',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'PROMOTION_CODE_TAKEN' });

    for (const [payload, code] of [
      [{ code: 'has space', percent_off: 5, applies_to: 'all' }, 'PROMOTION_CODE_INVALID'],
      [{ code: 'under_score', percent_off: 5, applies_to: 'all' }, 'PROMOTION_CODE_INVALID'],
      [{ code: 'AB', percent_off: 5, applies_to: 'all' }, 'PROMOTION_CODE_INVALID'],
      [
        { code: 'BOTH1', percent_off: 5, amount_off: 2, applies_to: 'all' },
        'PROMOTION_ONE_DISCOUNT',
      ],
      [{ code: 'NONE1', applies_to: 'all' }, 'PROMOTION_ONE_DISCOUNT'],
      [
        { code: 'PAST1', percent_off: 5, applies_to: 'all', expires_at: '2020-01-01T00:00:00Z' },
        'PROMOTION_EXPIRY_PAST',
      ],
    ] as const) {
      const res = await createCode(t.app, admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ code });
    }
    const [audit] = await t.database.db
      .select()
      .from(adminActions)
      .where(
        and(eq(adminActions.action, 'promotion_code.create'), eq(adminActions.targetId, spring.id)),
      );
    expect(audit).toMatchObject({ adminUsername: 'ops', details: { code: 'Spring-20' } });
  });

  it('quotes the price before and after a percent or an amount, whatever the case typed', async () => {
    const buyer = await newBuyer();
    const percent = await quote(t.app, buyer.token, 'spring-20', STARTER);
    expect(percent.statusCode).toBe(200);
    expect(percent.json().data).toEqual({
      code: 'Spring-20',
      type: 'credits',
      item_id: 'starter',
      billing_cycle: null,
      percent_off: 20,
      amount_off: null,
      applies_to: 'all',
      price: 19.9,
      discount: 3.98,
      price_after: 15.92,
      currency: 'usd',
    });
    await madeCode(t.app, admin, { code: 'FOUR-OFF', amount_off: 4, applies_to: 'packs' });
    const amount = await quote(t.app, buyer.token, 'Four-Off', STARTER);
    expect(amount.json().data).toMatchObject({ amount_off: 4, discount: 4, price_after: 15.9 });
    const plan = await quote(
      t.app,
      buyer.token,
      'four-off',
      'type=subscription&plan_id=pro&billing_cycle=monthly',
      { 'accept-language': 'zh-CN' },
    );
    expect(plan.statusCode).toBe(400);
    expect(plan.json()).toMatchObject({ code: 'PROMOTION_CODE_NOT_APPLICABLE' });
    expect(plan.json().message).toContain('仅适用于积分包');
    const unknown = await quote(t.app, buyer.token, 'NO-SUCH-CODE', STARTER);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(
      "There is no promotion code 'NO-SUCH-CODE'. Check the spelling, or continue without a code.",
    );
    const malformed = await quote(t.app, buyer.token, 'bad code!', STARTER);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'PROMOTION_CODE_INVALID' });
  });

  it('charges the discounted amount, names the code in the ledger, and redeems the use', async () => {
    const buyer = await newBuyer();
    const res = await buy(buyer.token, {
      type: 'credits',
      package_id: 'starter',
      amount: 19.9,
      promotion_code: 'SPRING-20',
      locale: 'zh-CN',
    });
    expect(res.statusCode).toBe(200);
    const { sessionId } = res.json() as { sessionId: string };
    const row = await checkoutRow(t.database.db, sessionId);
    expect(row).toMatchObject({ amountCents: 1592, discountCents: 398, locale: 'zh-CN' });
    const page = await t.app.inject({ url: `/checkout/local/${sessionId}` });
    expect(page.body).toContain('$15.92');
    expect(page.body).toContain('−$3.98');

    expect((await submitLocalCheckout(t.app, sessionId)).statusCode).toBe(303);
    expect(await creditBalance(t.app, buyer.token)).toBeGreaterThan(0);
    const [ledger] = await t.database.db
      .select()
      .from(creditTransactions)
      .where(eq(creditTransactions.sourceId, sessionId));
    expect(ledger?.description).toBe('Starter pack: 330 credits (code Spring-20: −$3.98)');
    const status = await t.app.inject({
      url: `/api/stripe/checkout/${sessionId}`,
      headers: bearer(buyer.token),
    });
    expect(status.json().data).toMatchObject({ status: 'paid', amount: 15.92 });
    const uses = await usesOf(t.database.db, row.promotionCodeId!);
    expect(uses.find((u) => u.checkoutId === sessionId)).toMatchObject({
      status: 'redeemed',
      discountCents: 398,
    });
  });

  it('never lets ten parallel checkouts take more than a code allows, and a cancel gives one back', async () => {
    const code = await madeCode(t.app, admin, {
      code: 'THREE-ONLY',
      percent_off: 50,
      applies_to: 'packs',
      max_redemptions: 3,
    });
    const buyers = await Promise.all(Array.from({ length: 10 }, () => newBuyer()));
    const answers = await Promise.all(
      buyers.map((b) =>
        buy(b.token, { type: 'credits', package_id: 'basic', promotion_code: 'three-only' }),
      ),
    );
    const won = answers.filter((r) => r.statusCode === 200);
    expect(won).toHaveLength(3);
    for (const lost of answers.filter((r) => r.statusCode !== 200)) {
      expect(lost.statusCode).toBe(409);
      expect(lost.json()).toMatchObject({ code: 'PROMOTION_CODE_USED_UP' });
    }
    expect((await codeRow(t.database.db, code.id)).redemptions).toBe(3);
    const reserved = await usesOf(t.database.db, code.id);
    expect(reserved.map((u) => u.status)).toEqual(['reserved', 'reserved', 'reserved']);

    // A cancelled checkout releases its use: the next buyer gets it.
    const first = won[0]!.json() as { sessionId: string };
    expect((await submitLocalCheckout(t.app, first.sessionId, 'cancel')).statusCode).toBe(303);
    expect((await codeRow(t.database.db, code.id)).redemptions).toBe(2);
    const late = await newBuyer();
    const retry = await buy(late.token, {
      type: 'credits',
      package_id: 'basic',
      promotion_code: 'THREE-ONLY',
    });
    expect(retry.statusCode).toBe(200);
    const after = await usesOf(t.database.db, code.id);
    expect(after.filter((u) => u.status === 'released')).toHaveLength(1);
    expect((await codeRow(t.database.db, code.id)).redemptions).toBe(3);
  });

  it('refuses an expired, an inactive and a first-purchase-only code with a clear message', async () => {
    const buyer = await newBuyer();
    const old = await madeCode(t.app, admin, {
      code: 'OLD-CODE',
      percent_off: 10,
      applies_to: 'all',
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    await t.database.db.execute(
      sql`update promotion_codes set expires_at = '2026-01-31T12:00:00Z' where id = ${old.id}`,
    );
    const expired = await quote(t.app, buyer.token, 'old-code', STARTER);
    expect(expired.statusCode).toBe(409);
    expect(expired.json()).toMatchObject({
      code: 'PROMOTION_CODE_EXPIRED',
      message:
        "The promotion code 'OLD-CODE' expired on 2026-01-31. Continue without it, or use another code.",
    });

    await madeCode(t.app, admin, { code: 'PAUSED', percent_off: 10, applies_to: 'all' });
    const off = await t.app.inject({
      method: 'PATCH',
      url: '/api/admin/promotion-codes/paused',
      headers: bearer(admin),
      payload: { active: false },
    });
    expect(off.statusCode).toBe(200);
    expect(off.json().data).toMatchObject({ code: 'PAUSED', active: false });
    const inactive = await buy(buyer.token, {
      type: 'credits',
      package_id: 'starter',
      promotion_code: 'Paused',
    });
    expect(inactive.statusCode).toBe(409);
    expect(inactive.json()).toMatchObject({ code: 'PROMOTION_CODE_INACTIVE' });
    const [audit] = await t.database.db
      .select()
      .from(adminActions)
      .where(eq(adminActions.action, 'promotion_code.deactivate'));
    expect(audit?.details).toMatchObject({ code: 'PAUSED', active: false, previous: true });

    await madeCode(t.app, admin, {
      code: 'WELCOME',
      amount_off: 5,
      applies_to: 'all',
      first_purchase_only: true,
    });
    expect((await quote(t.app, buyer.token, 'welcome', STARTER)).statusCode).toBe(200);
    const paid = await buy(buyer.token, { type: 'credits', package_id: 'starter' });
    await submitLocalCheckout(t.app, (paid.json() as { sessionId: string }).sessionId);
    const second = await quote(t.app, buyer.token, 'welcome', STARTER, {
      'accept-language': 'zh-CN,zh;q=0.9',
    });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ code: 'PROMOTION_FIRST_PURCHASE_ONLY' });
    expect(second.json().message).toContain('仅限首次购买');
  });

  it('stores the language of the checkout and gives it to the subscription it starts', async () => {
    const buyer = await newBuyer();
    const res = await buy(
      buyer.token,
      { type: 'subscription', plan_id: 'lite', billing_cycle: 'monthly' },
      { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.5' },
    );
    const { sessionId } = res.json() as { sessionId: string };
    expect((await checkoutRow(t.database.db, sessionId)).locale).toBe('zh-CN');
    await submitLocalCheckout(t.app, sessionId);
    const [sub] = await t.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, buyer.user.id));
    expect(sub?.locale).toBe('zh-CN');
    const english = await buy((await newBuyer()).token, { type: 'credits', package_id: 'starter' });
    const englishId = (english.json() as { sessionId: string }).sessionId;
    expect((await checkoutRow(t.database.db, englishId)).locale).toBe('en');
  });

  it('answers a user at most so many code checks a minute', async () => {
    const buyer = await newBuyer();
    const answers = [];
    for (let i = 0; i <= QUOTES_PER_MINUTE; i++) {
      answers.push((await quote(t.app, buyer.token, `GUESS-${i}`, STARTER)).statusCode);
    }
    expect(answers.slice(0, QUOTES_PER_MINUTE).every((s) => s === 404)).toBe(true);
    expect(answers.at(-1)).toBe(429);
    // Another user is not held back by the first one's guesses.
    expect((await quote(t.app, (await newBuyer()).token, 'spring-20', STARTER)).statusCode).toBe(
      200,
    );
  });

  it('lists codes newest first by keyset pages, and a code’s uses', async () => {
    const first = await t.app.inject({
      url: '/api/admin/promotion-codes?limit=2',
      headers: bearer(admin),
    });
    expect(first.statusCode).toBe(200);
    const page1 = first.json().data as { codes: Array<{ code: string }>; next_cursor: string };
    expect(page1.codes).toHaveLength(2);
    expect(page1.codes[0]!.code).toBe('WELCOME');
    const second = await t.app.inject({
      url: `/api/admin/promotion-codes?limit=2&cursor=${page1.next_cursor}`,
      headers: bearer(admin),
    });
    const page2 = second.json().data as { codes: Array<{ code: string }> };
    expect(page2.codes.map((c) => c.code)).not.toContain('WELCOME');
    expect(page2.codes).toHaveLength(2);

    const uses = await t.app.inject({
      url: '/api/admin/promotion-codes/three-only/redemptions',
      headers: bearer(admin),
    });
    expect(uses.statusCode).toBe(200);
    const data = uses.json().data as {
      code: { redemptions: number };
      redemptions: Array<{ status: string; email: string; discount: number }>;
    };
    expect(data.code.redemptions).toBe(3);
    expect(data.redemptions).toHaveLength(4);
    expect(data.redemptions[0]).toMatchObject({ status: 'reserved', discount: 24.95 });
    expect(data.redemptions.every((r) => r.email.startsWith('promo-buyer-'))).toBe(true);
    const missing = await t.app.inject({
      url: '/api/admin/promotion-codes/nothing-here/redemptions',
      headers: bearer(admin),
    });
    expect(missing.statusCode).toBe(404);
  });

  it('gives a first-purchase code to one checkout at a time: two tabs cannot both pay with it', async () => {
    await madeCode(t.app, admin, {
      code: 'FIRST-HALF',
      percent_off: 50,
      applies_to: 'packs',
      first_purchase_only: true,
    });
    const buyer = await newBuyer();
    const order = { type: 'credits', package_id: 'basic', promotion_code: 'first-half' };
    const tabs = await Promise.all([buy(buyer.token, order), buy(buyer.token, order)]);
    expect(tabs.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const refused = tabs.find((r) => r.statusCode === 409)!;
    expect(refused.json()).toMatchObject({ code: 'PROMOTION_FIRST_PURCHASE_IN_PROGRESS' });
    // Once the open one is cancelled, the code is free for a new checkout (still a first purchase).
    const open = tabs.find((r) => r.statusCode === 200)!.json() as { sessionId: string };
    expect((await submitLocalCheckout(t.app, open.sessionId, 'cancel')).statusCode).toBe(303);
    const again = await buy(buyer.token, order);
    expect(again.statusCode).toBe(200);
    await submitLocalCheckout(t.app, (again.json() as { sessionId: string }).sessionId);
    // Paid: the rule of the first purchase refuses it from now on.
    expect((await buy(buyer.token, order)).json()).toMatchObject({
      code: 'PROMOTION_FIRST_PURCHASE_ONLY',
    });
  });
});
