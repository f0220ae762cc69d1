/**
 * Issue 37, item 3, through the Stripe fake: a payment, a renewal, a refund and each dispute
 * outcome mail one receipt each, in the language of the page the customer bought from, with the
 * figures Stripe reported; a replayed (or a second, equivalent) webhook mails nothing more.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCALES, type Locale } from '../../shared/locales.ts';
import { startStripeFake, type SignedEvent, type StripeFake } from '../fakes/stripe/index.ts';
import { createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';
import { requestCheckout, stripeEnv, injectStripeEvent } from '../helpers/billing.ts';
import { databaseKinds } from '../helpers/database.ts';
import { mailParts, type MailParts } from '../helpers/mail-parts.ts';
import { outboxMailsTo } from '../helpers/outbox.ts';

/** The sentences and figures each language shows (basic pack: $49.90, 950 credits). */
const SHOWN = {
  en: {
    paid: 'Your receipt',
    renewed: 'Your subscription renewed',
    refund: 'Your refund',
    dispute: 'Your payment dispute is closed',
    basic: 'Basic credit pack',
    lite: 'Lite plan, monthly',
    price: '$49.90',
    half: '$24.95',
    lite$: '$29.90',
    granted: 'Credits granted:',
    takenBack: 'Credits taken back:',
    returned: 'Credits returned:',
    keptBack: 'Credits kept back:',
    refunded: 'Refunded:',
    disputed: 'Amount disputed:',
  },
  'zh-CN': {
    paid: '你的收据',
    renewed: '你的订阅已续费',
    refund: '你的退款',
    dispute: '你的付款争议已结束',
    basic: 'Basic 积分包',
    lite: 'Lite 套餐，月付',
    price: 'US$49.90',
    half: 'US$24.95',
    lite$: 'US$29.90',
    granted: '获得积分:',
    takenBack: '扣回积分:',
    returned: '返还积分:',
    keptBack: '扣留积分:',
    refunded: '退款金额:',
    disputed: '争议金额:',
  },
} satisfies Record<Locale, Record<string, string>>;

/** The line of the text part that starts with `label`, its spaces squeezed. */
const line = (mail: MailParts, label: string) =>
  mail.text
    .split('\n')
    .find((l) => l.startsWith(label))
    ?.replace(/\s+/g, ' ');

describe.each(databaseKinds)('receipt emails through Stripe (fake) on %s', (kind) => {
  let stripe: StripeFake;
  let t: TestApp;
  beforeAll(async () => {
    stripe = await startStripeFake();
    t = await createTestApp(kind, { env: stripeEnv(stripe) });
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  const deliver = async (...signed: SignedEvent[]) => {
    for (const one of signed) {
      const res = await injectStripeEvent(t.app, one);
      expect(res.statusCode).toBe(200);
    }
  };
  const byType = (events: SignedEvent[], type: string) =>
    events.find((e) => e.event.type === type)!;
  const buy = async (token: string, payload: object) => {
    const res = await requestCheckout(t.app, token, payload);
    expect(res.statusCode).toBe(200);
    return (res.json() as { sessionId: string }).sessionId;
  };
  const mailsTo = async (email: string) => {
    await t.app.receiptSender.runOnce();
    return (await outboxMailsTo(t, email)).map(mailParts);
  };
  const titled = (mails: MailParts[], title: string) =>
    mails.filter((m) => m.subject.startsWith(title));

  it.each(LOCALES)('a pack (%s): payment, partial refund, each mailed once', async (locale) => {
    const s = SHOWN[locale];
    const ann = await signInLocal(t.app, `ann-stripe-${locale}@example.com`);
    const sessionId = await buy(ann.token, { type: 'credits', package_id: 'basic', locale });
    const completed = byType(stripe.completeCheckout(sessionId), 'checkout.session.completed');
    await deliver(completed, completed);
    let mails = await mailsTo(ann.user.email);
    expect(mails).toHaveLength(1);
    const payment = mails[0]!;
    expect(payment.subject.startsWith(s.paid)).toBe(true);
    expect(payment.html).toContain(s.basic);
    expect(payment.html).toContain(s.price);
    expect(line(payment, s.granted)).toBe(`${s.granted} 950`);

    const [refund] = stripe.refundCheckout(sessionId, 2495);
    await deliver(refund!, refund!);
    mails = await mailsTo(ann.user.email);
    expect(mails).toHaveLength(2);
    const [refundMail] = titled(mails, s.refund);
    expect(line(refundMail!, s.refunded)).toBe(`${s.refunded} ${s.half}`);
    expect(line(refundMail!, s.takenBack)).toBe(`${s.takenBack} 475`);
    expect(refundMail!.html).toContain(s.half);
    expect(refundMail!.html).toContain(s.basic);

    // The rest of the payment, refunded later: a second refund receipt for what it added.
    const [rest] = stripe.refundCheckout(sessionId);
    await deliver(rest!);
    const refunds = titled(await mailsTo(ann.user.email), s.refund);
    expect(refunds).toHaveLength(2);
    expect(refunds.map((m) => line(m, s.refunded))).toEqual([
      `${s.refunded} ${s.half}`,
      `${s.refunded} ${s.half}`,
    ]);
    expect(refunds.map((m) => line(m, s.takenBack)).sort()).toEqual([
      `${s.takenBack} 475`,
      `${s.takenBack} 475`,
    ]);
  });

  it.each(LOCALES)(
    'a subscription (%s): first payment and a renewal, each mailed once',
    async (locale) => {
      const s = SHOWN[locale];
      const bob = await signInLocal(t.app, `bob-stripe-${locale}@example.com`);
      const sessionId = await buy(bob.token, {
        type: 'subscription',
        plan_id: 'lite',
        billing_cycle: 'monthly',
        locale,
      });
      const events = stripe.completeCheckout(sessionId);
      // invoice.paid (subscription_create) first, as Stripe may send it; then the rest, twice.
      await deliver(byType(events, 'invoice.paid'), ...events, ...events);
      const subscriptionId = String(
        byType(events, 'customer.subscription.created').event.data.object.id,
      );
      const renewal = byType(stripe.renewSubscription(subscriptionId), 'invoice.paid');
      await deliver(renewal, renewal);
      const mails = await mailsTo(bob.user.email);
      expect(mails.map((m) => m.subject.split(/[（(]/)[0]!.trim()).sort()).toEqual(
        [s.paid, s.renewed].sort(),
      );
      for (const mail of mails) {
        expect(mail.html).toContain(s.lite);
        expect(mail.html).toContain(s.lite$);
        expect(line(mail, s.granted)).toBe(`${s.granted} 590`);
      }
    },
  );

  it('a switch to a yearly plan in the portal, charged at once, mails one receipt for it', async () => {
    const dot = await signInLocal(t.app, 'dot-stripe-switch@example.com');
    const sessionId = await buy(dot.token, {
      type: 'subscription',
      plan_id: 'pro',
      billing_cycle: 'monthly',
    });
    const events = stripe.completeCheckout(sessionId);
    await deliver(...events);
    const subscriptionId = String(
      byType(events, 'customer.subscription.created').event.data.object.id,
    );
    const switched = stripe.portalSwitchPlan(subscriptionId, {
      unitAmount: 47_900,
      interval: 'year',
      productName: 'Pro (yearly)',
      metadata: { planId: 'pro' },
    });
    await deliver(byType(switched, 'invoice.paid'), ...switched, ...switched);
    const mails = await mailsTo(dot.user.email);
    expect(mails).toHaveLength(2);
    const [yearly] = mails.filter((m) => m.text.includes('Pro plan, yearly'));
    expect(yearly).toBeDefined();
    expect(line(yearly!, 'Amount paid:')).toBe('Amount paid: $479.00');
    expect(line(yearly!, 'Credits granted:')).toBe('Credits granted: 1,340');
    expect(yearly!.text).toContain('month by month');
  });

  it.each(LOCALES)('disputes (%s): won and lost each mail their outcome once', async (locale) => {
    const s = SHOWN[locale];
    const cy = await signInLocal(t.app, `cy-stripe-${locale}@example.com`);
    const won = await buy(cy.token, { type: 'credits', package_id: 'basic', locale });
    const lost = await buy(cy.token, { type: 'credits', package_id: 'basic', locale });
    await deliver(...stripe.completeCheckout(won), ...stripe.completeCheckout(lost));
    const [wonOpened] = stripe.disputePayment(won);
    const [lostOpened] = stripe.disputePayment(lost);
    await deliver(wonOpened!, lostOpened!);
    // Opening a dispute is no outcome: no mail yet beyond the two payments.
    expect(await mailsTo(cy.user.email)).toHaveLength(2);
    const [wonClosed] = stripe.closeDispute(String(wonOpened!.event.data.object.id), 'won');
    const [lostClosed] = stripe.closeDispute(String(lostOpened!.event.data.object.id), 'lost');
    await deliver(wonClosed!, lostClosed!, wonClosed!, lostClosed!);
    const outcomes = titled(await mailsTo(cy.user.email), s.dispute);
    expect(outcomes).toHaveLength(2);
    const lines = outcomes.map((m) => [
      line(m, s.disputed),
      line(m, s.returned) ?? line(m, s.keptBack),
    ]);
    expect(lines).toEqual(
      expect.arrayContaining([
        [`${s.disputed} ${s.price}`, `${s.returned} 950`],
        [`${s.disputed} ${s.price}`, `${s.keptBack} 950`],
      ]),
    );
  });
});
