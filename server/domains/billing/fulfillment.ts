/**
 * What a payment grants, run inside the caller's transaction: the one fulfillment function (run
 * by Stripe's webhook, by the success-page check and by the local checkout), a plan period's
 * credits, a subscription's saved state, and a refunded pack's credits taken back. Every grant is
 * keyed by its source, so running any of these again changes nothing.
 */
import type { Tx } from '../../core/db.ts';
import type { CheckoutSessionRow, SubscriptionRow } from '../../db/schema.ts';
import { findPack, findPlan, type BillingCycle, type Plan } from '../../../shared/billing.ts';
import { applyCreditChange, takeBackCredits } from '../credits/service.ts';
import type { BillingContext } from './context.ts';
import type { PaidCheckout, ProviderSubscription } from './providers/types.ts';
import * as repo from './repository.ts';

const day = (d: Date) => d.toISOString().slice(0, 10);

export function createFulfillment({ provider, log }: Pick<BillingContext, 'provider' | 'log'>) {
  /** Grants one period of a plan's credits, once per source. */
  async function grantPlanCredits(
    tx: Tx,
    userId: string,
    plan: Plan,
    source: { type: string; id: string },
    periodStart: Date,
  ) {
    await applyCreditChange(tx, {
      userId,
      amount: plan.credits,
      sourceType: source.type,
      sourceId: source.id,
      description: `${plan.name} plan: ${plan.credits} credits for the period from ${day(periodStart)}`,
    });
  }

  async function saveSubscription(
    tx: Tx,
    sub: ProviderSubscription,
    owner: { userId: string; planId: string; billingCycle: BillingCycle },
  ): Promise<SubscriptionRow> {
    return repo.upsertSubscription(tx, {
      id: sub.id,
      provider: provider.name,
      userId: owner.userId,
      planId: owner.planId,
      billingCycle: owner.billingCycle,
      status: sub.status,
      currentPeriodStart: sub.periodStart,
      currentPeriodEnd: sub.periodEnd,
      cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
      canceledAt: sub.canceledAt,
    });
  }

  /**
   * The one fulfillment function: a paid checkout grants its pack's credits, or starts its
   * subscription and grants the first period. Safe to run any number of times.
   */
  async function fulfillCheckout(tx: Tx, paid: PaidCheckout): Promise<CheckoutSessionRow | null> {
    const checkout = await repo.findCheckout(tx, paid.sessionId, { forUpdate: true });
    if (!checkout) {
      log.warn({ sessionId: paid.sessionId }, 'paid checkout session is not one of ours; ignored');
      return null;
    }
    if (checkout.kind === 'credits') {
      const pack = findPack(checkout.itemId);
      await applyCreditChange(tx, {
        userId: checkout.userId,
        amount: checkout.credits,
        sourceType: 'checkout',
        sourceId: checkout.id,
        description: `${pack?.name ?? checkout.itemId} pack: ${checkout.credits} credits`,
      });
    } else {
      const plan = findPlan(checkout.itemId);
      if (!plan) throw new Error(`checkout ${checkout.id} names unknown plan ${checkout.itemId}`);
      if (paid.subscription) {
        await saveSubscription(tx, paid.subscription, {
          userId: checkout.userId,
          planId: plan.id,
          billingCycle: checkout.billingCycle ?? 'monthly',
        });
      }
      // Keyed by the first invoice when there is one, so its invoice.paid event grants nothing more.
      await grantPlanCredits(
        tx,
        checkout.userId,
        plan,
        paid.invoiceId
          ? { type: 'stripe_invoice', id: paid.invoiceId }
          : { type: 'checkout', id: checkout.id },
        paid.subscription?.periodStart ?? new Date(),
      );
    }
    if (checkout.status !== 'paid') {
      await repo.updateCheckout(tx, checkout.id, {
        status: 'paid',
        completedAt: new Date(),
        paymentIntentId: paid.paymentIntentId ?? checkout.paymentIntentId,
        subscriptionId: paid.subscription?.id ?? checkout.subscriptionId,
      });
    }
    return { ...checkout, status: 'paid' };
  }

  return {
    fulfillCheckout,
    saveSubscription,
    grantPlanCredits,

    /** Takes back the credits of a refunded pack, never below zero; records what could not be taken. */
    async applyRefund(
      tx: Tx,
      refund: {
        chargeId: string;
        paymentIntentId: string;
        amountCents: number;
        refundedCents: number;
      },
    ) {
      const checkout = await repo.findCheckoutByPaymentIntent(tx, refund.paymentIntentId);
      if (!checkout || checkout.kind !== 'credits') return false;
      const share = Math.min(1, refund.refundedCents / Math.max(1, refund.amountCents));
      const due =
        Math.round(checkout.credits * share) -
        checkout.creditsRefunded -
        checkout.creditsUnrecovered;
      if (due <= 0) return true;
      const { taken, duplicate } = await takeBackCredits(tx, {
        userId: checkout.userId,
        amount: due,
        sourceType: 'stripe_refund',
        sourceId: `${refund.chargeId}:${refund.refundedCents}`,
        description: `Refund of the ${findPack(checkout.itemId)?.name ?? checkout.itemId} pack`,
      });
      if (duplicate) return true;
      await repo.updateCheckout(tx, checkout.id, {
        creditsRefunded: checkout.creditsRefunded + taken,
        creditsUnrecovered: checkout.creditsUnrecovered + (due - taken),
      });
      if (taken < due) {
        log.warn(
          { checkoutId: checkout.id, due, taken },
          'refund: credits already spent could not be taken back',
        );
      }
      return true;
    },
  };
}

export type Fulfillment = ReturnType<typeof createFulfillment>;
