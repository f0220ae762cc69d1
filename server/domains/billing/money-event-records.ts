/**
 * The money events of each billing path (issue 37), built from what that path has just applied
 * and recorded in its transaction (money-events.ts): a checkout turning paid, a renewal's grant, a
 * refund, a dispute's close. Each caller records only when its own effect was applied (a grant or
 * a status change that was not already there), so a replayed webhook records nothing; the
 * receipt's unique source key would refuse a second receipt anyway.
 */
import { eq } from 'drizzle-orm';
import type { Tx } from '../../core/db.ts';
import type { PurchasedItem } from '../../contracts/money-events.ts';
import { invoicePayments, promotionCodes, type SubscriptionRow } from '../../db/schema.ts';
import { CURRENCY, findPlan, type BillingCycle, type Plan } from '../../../shared/billing.ts';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../../../shared/locales.ts';
import { recordMoneyEvent } from './money-events.ts';
import type { DisputedPayment } from './payments-repository.ts';
import * as repo from './repository.ts';

/** A yearly plan's payment buys twelve months of credits (granted month by month). */
const MONTHS_IN_YEAR = 12;

const localeOf = (value: string | null | undefined): Locale =>
  isLocale(value) ? value : DEFAULT_LOCALE;

/** The credits a plan's payment for one cycle buys in all. */
export const creditsOfCycle = (plan: Pick<Plan, 'credits'>, cycle: BillingCycle | null) =>
  cycle === 'yearly' ? plan.credits * MONTHS_IN_YEAR : plan.credits;

/** A paid payment, as a refund or a dispute of it needs it. */
interface PaymentFacts {
  key: string;
  userId: string;
  item: PurchasedItem;
  locale: Locale;
  currency: string;
  amountCents: number;
  /** What the money bought in all; 0 when it never granted anything (a duplicate refunded). */
  creditsBought: number;
}

/** The pack checkout or subscription invoice a charge paid (refunds.ts PaidItem.payment). */
async function paymentFacts(tx: Tx, payment: DisputedPayment): Promise<PaymentFacts | null> {
  if ('checkoutId' in payment) {
    const checkout = await repo.findCheckout(tx, payment.checkoutId);
    if (!checkout) return null;
    const subscription = checkout.kind === 'subscription';
    const plan = subscription ? findPlan(checkout.itemId) : undefined;
    return {
      key: `checkout:${checkout.id}`,
      userId: checkout.userId,
      item: {
        type: subscription ? 'subscription' : 'credits',
        id: checkout.itemId,
        billingCycle: checkout.billingCycle ?? undefined,
      },
      locale: localeOf(checkout.locale),
      currency: checkout.currency,
      amountCents: checkout.amountCents,
      creditsBought:
        checkout.status !== 'paid'
          ? 0
          : plan
            ? creditsOfCycle(plan, checkout.billingCycle)
            : checkout.credits,
    };
  }
  const [invoice] = await tx
    .select()
    .from(invoicePayments)
    .where(eq(invoicePayments.invoiceId, payment.invoiceId))
    .limit(1);
  if (!invoice) return null;
  const sub = await repo.findSubscription(tx, invoice.subscriptionId);
  const cycle = sub?.billingCycle ?? 'monthly';
  return {
    key: `invoice:${invoice.invoiceId}`,
    userId: invoice.userId,
    item: { type: 'subscription', id: sub?.planId ?? 'unknown', billingCycle: cycle },
    locale: localeOf(sub?.locale),
    currency: CURRENCY,
    amountCents: invoice.amountCents,
    creditsBought:
      invoice.monthsGranted > 0 ? creditsOfCycle({ credits: invoice.creditsPerMonth }, cycle) : 0,
  };
}

/** The share of `bought` that `cents` of `total` paid for. */
const shareOf = (bought: number, cents: number, total: number) =>
  Math.round((bought * Math.min(Math.max(cents, 0), total)) / Math.max(1, total));

/** A checkout has just turned paid (fulfillment.ts): a pack, or a plan's first period. */
export async function recordPayment(tx: Tx, checkoutId: string, at = new Date()): Promise<void> {
  // Read again: the caller's update (the amount the provider reports) is what was paid.
  const checkout = await repo.findCheckout(tx, checkoutId);
  if (checkout?.status !== 'paid') return;
  const plan = checkout.kind === 'subscription' ? findPlan(checkout.itemId) : undefined;
  const [code] = checkout.promotionCodeId
    ? await tx
        .select({ code: promotionCodes.code })
        .from(promotionCodes)
        .where(eq(promotionCodes.id, checkout.promotionCodeId))
    : [];
  await recordMoneyEvent(tx, {
    kind: 'payment',
    userId: checkout.userId,
    checkoutId: checkout.id,
    item: {
      type: plan ? 'subscription' : 'credits',
      id: checkout.itemId,
      billingCycle: plan ? (checkout.billingCycle ?? 'monthly') : undefined,
    },
    amountCents: checkout.amountCents,
    currency: checkout.currency,
    discountCents: checkout.discountCents,
    promotionCode: code?.code,
    credits: plan ? plan.credits : checkout.credits,
    creditsBought: plan ? creditsOfCycle(plan, checkout.billingCycle) : checkout.credits,
    locale: localeOf(checkout.locale),
    at,
  });
}

/** A subscription's next period was paid and its credits granted now (Stripe or local). */
export async function recordRenewal(
  tx: Tx,
  renewal: {
    subscription: SubscriptionRow;
    plan: Plan;
    invoiceId: string;
    amountCents: number;
    discountCents?: number;
    at?: Date;
  },
): Promise<void> {
  const { subscription: sub, plan } = renewal;
  await recordMoneyEvent(tx, {
    kind: 'renewal',
    userId: sub.userId,
    invoiceId: renewal.invoiceId,
    subscriptionId: sub.id,
    item: { type: 'subscription', id: plan.id, billingCycle: sub.billingCycle },
    amountCents: renewal.amountCents,
    currency: CURRENCY,
    discountCents: renewal.discountCents ?? 0,
    credits: plan.credits,
    creditsBought: creditsOfCycle(plan, sub.billingCycle),
    locale: localeOf(sub.locale),
    at: renewal.at ?? new Date(),
  });
}

/**
 * A charge was refunded (refunds.ts): `refundedCents` is its running total after this refund,
 * `previousCents` before it. Nothing when the refund adds nothing (an older total arriving late)
 * or the payment never counted as a purchase (a duplicate subscription refunded unfulfilled).
 */
export async function recordRefund(
  tx: Tx,
  refund: {
    payment: DisputedPayment;
    chargeId: string;
    refundedCents: number;
    previousCents: number;
    creditsTakenBack: number;
  },
): Promise<void> {
  const paid = await paymentFacts(tx, refund.payment);
  const refundedNow = refund.refundedCents - refund.previousCents;
  if (!paid || paid.creditsBought === 0 || refundedNow <= 0) return;
  const { creditsBought: bought, amountCents: total } = paid;
  await recordMoneyEvent(tx, {
    kind: 'refund',
    userId: paid.userId,
    // The ledger's key for the same refund (refunds.ts): the charge and its running total.
    refundId: `${refund.chargeId}:${refund.refundedCents}`,
    paymentKey: paid.key,
    item: paid.item,
    amountCents: refundedNow,
    currency: paid.currency,
    creditsTakenBack: refund.creditsTakenBack,
    creditsUnbought: Math.max(
      0,
      shareOf(bought, refund.refundedCents, total) - shareOf(bought, refund.previousCents, total),
    ),
    locale: paid.locale,
    at: new Date(),
  });
}

/** A dispute closed (disputes.ts): won gives back what was held, lost keeps it. */
export async function recordDisputeOutcome(
  tx: Tx,
  outcome: {
    payment: DisputedPayment;
    disputeId: string;
    won: boolean;
    amountCents: number;
    creditsHeld: number;
  },
): Promise<void> {
  const paid = await paymentFacts(tx, outcome.payment);
  if (!paid || paid.creditsBought === 0) return;
  await recordMoneyEvent(tx, {
    kind: outcome.won ? 'dispute_won' : 'dispute_lost',
    userId: paid.userId,
    disputeId: outcome.disputeId,
    paymentKey: paid.key,
    item: paid.item,
    amountCents: outcome.amountCents,
    currency: paid.currency,
    creditsHeld: outcome.creditsHeld,
    creditsUnbought: outcome.won
      ? 0
      : shareOf(paid.creditsBought, outcome.amountCents, paid.amountCents),
    locale: paid.locale,
    at: new Date(),
  });
}
