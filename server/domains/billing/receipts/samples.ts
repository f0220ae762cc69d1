/**
 * Sample receipts for the admin's email previews: one of each kind, built from the catalogue's
 * real plans and packs through the same payload function as real events, so a preview shows what
 * a customer would receive.
 */
import type { MoneyEvent } from '../../../contracts/money-events.ts';
import type { EmailPreview } from '../../../../shared/api/email-previews.ts';
import { LOCALES } from '../../../../shared/locales.ts';
import { PACKS, PLANS, planPrice, toCents } from '../../../../shared/billing.ts';
import { creditsOfCycle } from '../money-event-records.ts';
import { receiptPayload } from './payload.ts';

/** One sample event of each kind (the second plan, yearly with a code; the first pack refunded). */
function sampleEvents(at: Date): MoneyEvent[] {
  const plan = PLANS[1] ?? PLANS[0]!;
  const pack = PACKS[0]!;
  const yearly = toCents(planPrice(plan, 'yearly'));
  const discount = Math.round(yearly / 10);
  const base = { userId: 'sample', currency: 'usd', locale: 'en' as const, at };
  const packItem = { type: 'credits' as const, id: pack.id };
  const packPayment = { paymentKey: 'checkout:sample', item: packItem };
  return [
    {
      ...base,
      kind: 'payment',
      checkoutId: 'sample',
      item: { type: 'subscription', id: plan.id, billingCycle: 'yearly' },
      amountCents: yearly - discount,
      discountCents: discount,
      promotionCode: 'LAUNCH10',
      credits: plan.credits,
      creditsBought: creditsOfCycle(plan, 'yearly'),
    },
    {
      ...base,
      kind: 'renewal',
      invoiceId: 'sample',
      subscriptionId: 'sample',
      item: { type: 'subscription', id: plan.id, billingCycle: 'monthly' },
      amountCents: toCents(planPrice(plan, 'monthly')),
      discountCents: 0,
      credits: plan.credits,
      creditsBought: plan.credits,
    },
    {
      ...base,
      ...packPayment,
      kind: 'refund',
      refundId: 'sample',
      amountCents: toCents(pack.price),
      creditsTakenBack: pack.credits,
      creditsUnbought: pack.credits,
    },
    {
      ...base,
      ...packPayment,
      kind: 'dispute_won',
      disputeId: 'sample',
      amountCents: toCents(pack.price),
      creditsHeld: pack.credits,
      creditsUnbought: 0,
    },
    {
      ...base,
      ...packPayment,
      kind: 'dispute_lost',
      disputeId: 'sample',
      amountCents: toCents(pack.price),
      creditsHeld: pack.credits,
      creditsUnbought: pack.credits,
    },
  ];
}

/** Every receipt kind in every language, rendered as customers receive them. */
export async function emailPreviews(siteUrl: string, at = new Date()): Promise<EmailPreview[]> {
  const { renderReceiptEmail } = await import('./template.ts');
  const previews: EmailPreview[] = [];
  for (const [index, event] of sampleEvents(at).entries()) {
    for (const locale of LOCALES) {
      const payload = receiptPayload(event);
      const receiptNumber = `R-${1001 + index}`;
      const email = await renderReceiptEmail({ payload, locale, receiptNumber, siteUrl });
      previews.push({ kind: payload.kind, locale, ...email });
    }
  }
  return previews;
}
