/**
 * Issue 37, item 3: a receipt email after every confirmed payment, renewal, refund and dispute
 * outcome, in the language of the page the customer bought from, with an HTML and a plain-text
 * part carrying the same figures; sent after the commit through the outbox, once per event.
 * The sender's own guarantees (a crash between commit and send, two senders, retries) are in
 * receipts-sender.test.ts.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptEmails, subscriptions } from '../../server/db/schema.ts';
import { LOCALES, type Locale } from '../../shared/locales.ts';
import { bearer, createTestApp, signInAdmin, signInLocal, type TestApp } from '../helpers/app.ts';
import { requestCheckout, submitLocalCheckout } from '../helpers/billing.ts';
import { databaseKinds } from '../helpers/database.ts';
import { mailParts, type MailParts } from '../helpers/mail-parts.ts';
import { outboxMailsTo } from '../helpers/outbox.ts';

/** What each language shows for the figures these tests use. */
const SHOWN = {
  en: {
    starter: 'Starter credit pack',
    liteMonthly: 'Lite plan, monthly',
    proYearly: 'Pro plan, yearly',
    starterPrice: '$19.90',
    litePrice: '$29.90',
    proYearlyPrice: '$479.00',
    history: '/video-history',
    account: '/account/billing',
    title: 'Your receipt',
    renewed: 'Your subscription renewed',
    credits: (n: string) => `Credits granted: ${n}`,
  },
  'zh-CN': {
    starter: 'Starter 积分包',
    liteMonthly: 'Lite 套餐，月付',
    proYearly: 'Pro 套餐，年付',
    starterPrice: 'US$19.90',
    litePrice: 'US$29.90',
    proYearlyPrice: 'US$479.00',
    history: '/zh/video-history',
    account: '/zh/account/billing',
    title: '你的收据',
    renewed: '你的订阅已续费',
    credits: (n: string) => `获得积分: ${n}`,
  },
} satisfies Record<Locale, unknown>;

const SITE = 'http://localhost:4321';
const today = (locale: Locale, at = new Date()) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(at);

/** Both parts show each of `figures`. */
function expectBothParts(mail: MailParts, figures: string[]) {
  expect(mail.html).not.toBeNull();
  for (const figure of figures) {
    expect(mail.text).toContain(figure);
    // The HTML escapes nothing in these figures but may split none of them either.
    expect(mail.html).toContain(figure);
  }
}

describe.each(databaseKinds)('receipt emails with the local checkout on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const mailsTo = async (email: string) => {
    await t.app.receiptSender.runOnce();
    return (await outboxMailsTo(t, email)).map(mailParts);
  };
  const buyAndPay = async (token: string, payload: object) => {
    const res = await requestCheckout(t.app, token, payload);
    expect(res.statusCode).toBe(200);
    const { sessionId } = res.json() as { sessionId: string };
    expect((await submitLocalCheckout(t.app, sessionId)).statusCode).toBe(303);
    return sessionId;
  };

  it.each(LOCALES)(
    'a paid pack bought from the %s page mails one receipt in that language, even paid twice',
    async (locale) => {
      const shown = SHOWN[locale];
      const ann = await signInLocal(t.app, `ann-pack-${locale}@example.com`);
      const sessionId = await buyAndPay(ann.token, {
        type: 'credits',
        package_id: 'starter',
        locale,
      });
      // A second press of Pay grants nothing and mails nothing.
      await submitLocalCheckout(t.app, sessionId);
      const mails = await mailsTo(ann.user.email);
      expect(mails).toHaveLength(1);
      const [mail] = mails as [MailParts];
      expect(mail.subject).toMatch(new RegExp(`^${shown.title}（?\\s?\\(?R-\\d+`));
      const number = /R-\d+/.exec(mail.subject)![0];
      expectBothParts(mail, [
        number,
        shown.starter,
        shown.starterPrice,
        '330',
        today(locale),
        `${SITE}${shown.history}`,
        `${SITE}${shown.account}`,
      ]);
      expect(mail.text).toContain(shown.credits('330'));
      expect(mail.html).toContain(`lang="${locale}"`);
      // Nothing more on the next look.
      expect(await mailsTo(ann.user.email)).toHaveLength(1);
    },
  );

  it.each(LOCALES)(
    'a yearly plan (%s) says the credits come month by month, and its monthly grants mail nothing',
    async (locale) => {
      const shown = SHOWN[locale];
      const bob = await signInLocal(t.app, `bob-yearly-${locale}@example.com`);
      await buyAndPay(bob.token, {
        type: 'subscription',
        plan_id: 'pro',
        billing_cycle: 'yearly',
        locale,
      });
      const [mail, ...rest] = await mailsTo(bob.user.email);
      expect(rest).toHaveLength(0);
      expectBothParts(mail!, [shown.proYearly, shown.proYearlyPrice, '1,340']);
      expect(mail!.text).toContain(locale === 'en' ? 'month by month' : '按月发放');
      const [row] = await t.database.db
        .select()
        .from(receiptEmails)
        .where(eq(receiptEmails.receiptNumber, /R-\d+/.exec(mail!.subject)![0]));
      expect(row?.payload).toMatchObject({ credits: 1340, creditsBought: 1340 * 12 });
      // Months 2 and 3 of the year: credits granted, no payment, no receipt.
      const [sub] = await t.database.db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.userId, bob.user.id));
      const inThreeMonths = new Date(sub!.currentPeriodStart);
      inThreeMonths.setUTCMonth(inThreeMonths.getUTCMonth() + 2, inThreeMonths.getUTCDate() + 1);
      expect(await t.app.billing.runScheduledGrants(inThreeMonths)).toBeGreaterThan(0);
      expect(await mailsTo(bob.user.email)).toHaveLength(1);
    },
  );

  it.each(LOCALES)(
    'a local monthly subscription (%s) mails a renewal receipt once per period',
    async (locale) => {
      const shown = SHOWN[locale];
      const cy = await signInLocal(t.app, `cy-renew-${locale}@example.com`);
      await buyAndPay(cy.token, {
        type: 'subscription',
        plan_id: 'lite',
        billing_cycle: 'monthly',
        locale,
      });
      const [sub] = await t.database.db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.userId, cy.user.id));
      expect(sub?.locale).toBe(locale);
      const renewedAt = new Date(sub!.currentPeriodEnd.getTime() + 1000);
      await t.app.billing.runScheduledGrants(renewedAt);
      await t.app.billing.runScheduledGrants(renewedAt);
      const mails = await mailsTo(cy.user.email);
      expect(mails).toHaveLength(2);
      const renewal = mails.find((m) => m.subject.startsWith(shown.renewed));
      expect(renewal).toBeDefined();
      expectBothParts(renewal!, [
        shown.liteMonthly,
        shown.litePrice,
        '590',
        today(locale, sub!.currentPeriodEnd),
      ]);
    },
  );

  it('GET /api/account/receipts/{number}: the owner gets the HTML they were mailed; anyone else a 404', async () => {
    const dee = await signInLocal(t.app, 'dee-receipt@example.com');
    await buyAndPay(dee.token, { type: 'credits', package_id: 'starter', locale: 'zh-CN' });
    const [mail] = await mailsTo(dee.user.email);
    const number = /R-\d+/.exec(mail!.subject)![0];
    const url = `/api/account/receipts/${number}`;
    const own = await t.app.inject({ url, headers: bearer(dee.token) });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toMatch(/^text\/html/);
    expect(own.headers['content-security-policy']).toContain("style-src 'unsafe-inline'");
    expect(own.headers['content-security-policy']).not.toContain('script-src');
    expect(own.body).toContain(number);
    expect(own.body).toContain('US$19.90');
    expect(own.body).toContain('lang="zh-CN"');

    const eve = await signInLocal(t.app, 'eve-receipt@example.com');
    const theirs = await t.app.inject({ url, headers: bearer(eve.token) });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ success: false, code: 'RECEIPT_NOT_FOUND' });
    const missing = await t.app.inject({
      url: '/api/account/receipts/R-99999999',
      headers: bearer(dee.token),
    });
    expect(missing.statusCode).toBe(404);
    expect((await t.app.inject({ url })).statusCode).toBe(401);
    const malformed = await t.app.inject({
      url: '/api/account/receipts/1%27%20or%201=1',
      headers: bearer(dee.token),
    });
    expect(malformed.statusCode).toBe(400);
  });

  it('GET /api/admin/email-previews: every receipt kind in both languages, for the admin only', async () => {
    const admin = await signInAdmin(t.app);
    const res = await t.app.inject({ url: '/api/admin/email-previews', headers: bearer(admin) });
    expect(res.statusCode).toBe(200);
    const previews = (
      res.json() as {
        data: {
          previews: { kind: string; locale: string; subject: string; html: string; text: string }[];
        };
      }
    ).data.previews;
    expect(previews.map((p) => `${p.kind}/${p.locale}`).sort()).toEqual(
      ['payment', 'renewal', 'refund', 'dispute_won', 'dispute_lost']
        .flatMap((k) => LOCALES.map((l) => `${k}/${l}`))
        .sort(),
    );
    for (const preview of previews) {
      expect(preview.html).toMatch(/^<!DOCTYPE html/);
      expect(preview.html).toContain(`lang="${preview.locale}"`);
      expect(preview.text).toContain(/R-\d+/.exec(preview.subject)![0]);
    }
    const refundZh = previews.find((p) => p.kind === 'refund' && p.locale === 'zh-CN')!;
    expect(refundZh.text).toContain('退款金额');
    expect(refundZh.text).toContain('US$19.90');

    const user = await signInLocal(t.app, 'not-admin@example.com');
    const refused = await t.app.inject({
      url: '/api/admin/email-previews',
      headers: bearer(user.token),
    });
    expect(refused.statusCode).toBe(403);
  });
});
