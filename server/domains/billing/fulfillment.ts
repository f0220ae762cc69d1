/**
 * What a payment grants, run inside the caller's transaction: the one fulfillment function (run
 * by Stripe's webhook, by the success-page check and by the local checkout), a plan period's
 * credits and a subscription's saved state (refunds: refunds.ts). Every grant is keyed by its
 * source, so running any of these again changes nothing.
 */
import type { Tx } from '../../core/db.ts';
import type { CheckoutSessionRow, SubscriptionRow } from '../../db/schema.ts';
import { findPack, findPlan, type BillingCycle, type Plan } from '../../../shared/billing.ts';
import { applyCreditChange } from '../credits/service.ts';
import type { BillingContext } from './context.ts';
import type { PaidCheckout, ProviderSubscription } from './providers/types.ts';
import * as repo from './repository.ts';
import { recordPayment } from './money-event-records.ts';
import {
  copyCheckoutLocale,
  promotionNote,
  releasePromotion,
  settlePromotion,
} from './promotions/settle.ts';

const day = (d: Date) => d.toISOString().slice(0, 10);

export function createFulfillment({ provider, log }: Pick<BillingContext, 'provider' | 'log'>) {
  /** Grants one period of a plan's credits, once per source. */
  async function grantPlanCredits(
    tx: Tx,
    userId: string,
    plan: Plan,
    source: { type: string; id: string },
    periodStart: Date,
    /** A promotion code's note (promotions/settle.ts), for the first period bought with it. */
    note = '',
  ) {
    return applyCreditChange(tx, {
      userId,
      amount: plan.credits,
      sourceType: source.type,
      sourceId: source.id,
      description: `${plan.name} plan: ${plan.credits} credits for the period from ${day(periodStart)}${note}`,
    });
  }

  /**
   * Saves a subscription as the provider reports it, under the user's billing lock. One that
   * becomes active while the user has another active one is a duplicate (issue 16, finding 2):
   * it is stored canceled (the database allows one active subscription per user) and queued to
   * be cancelled and refunded at the provider after the commit (duplicates.ts); `duplicate`
   * tells the caller to grant nothing for it. The subscription the user had stays.
   */
  async function saveSubscription(
    tx: Tx,
    sub: ProviderSubscription,
    owner: { userId: string; planId: string; billingCycle: BillingCycle },
  ): Promise<{ row: SubscriptionRow; duplicate: boolean }> {
    await repo.lockUserBilling(tx, owner.userId);
    let duplicate = await repo.isDuplicateSubscription(tx, sub.id);
    if (!duplicate && repo.ACTIVE_STATUSES.includes(sub.status)) {
      // Only a subscription turning active can collide: an active row is the one kept, and a
      // canceled one stays canceled (upsertSubscription).
      const existing = await repo.findSubscription(tx, sub.id);
      const activating =
        !existing ||
        (existing.status !== 'canceled' && !repo.ACTIVE_STATUSES.includes(existing.status));
      const kept = activating
        ? await repo.findOtherActiveSubscription(tx, owner.userId, sub.id)
        : null;
      if (kept) {
        duplicate = true;
        await repo.insertDuplicateSubscription(tx, {
          subscriptionId: sub.id,
          provider: provider.name,
          keptSubscriptionId: kept.id,
        });
        log.warn(
          { subscriptionId: sub.id, keptSubscriptionId: kept.id, userId: owner.userId },
          'second active subscription: stored canceled, to be cancelled and refunded',
        );
      }
    }
    const row = await repo.upsertSubscription(tx, {
      id: sub.id,
      provider: provider.name,
      userId: owner.userId,
      planId: owner.planId,
      billingCycle: owner.billingCycle,
      status: duplicate ? 'canceled' : sub.status,
      currentPeriodStart: sub.periodStart,
      currentPeriodEnd: sub.periodEnd,
      cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
      canceledAt: duplicate ? (sub.canceledAt ?? new Date()) : sub.canceledAt,
    });
    return { row, duplicate };
  }

  /**
   * The one fulfillment function: a paid checkout grants its pack's credits, or starts its
   * subscription and grants the first period. Safe to run any number of times.
   */
  async function fulfillCheckout(tx: Tx, paid: PaidCheckout): Promise<CheckoutSessionRow | null> {
    const found = await repo.findCheckout(tx, paid.sessionId);
    if (!found) {
      log.warn({ sessionId: paid.sessionId }, 'paid checkout session is not one of ours; ignored');
      return null;
    }
    // The user's billing lock before the row lock: the order every billing write takes them in.
    await repo.lockUserBilling(tx, found.userId);
    const locked = (await repo.findCheckout(tx, paid.sessionId, { forUpdate: true })) ?? found;
    // A promotion code's use is redeemed; the amount paid is the provider's, after discounts.
    const checkout = await settlePromotion(tx, locked, paid);
    if (checkout.kind === 'credits') {
      const pack = findPack(checkout.itemId);
      await applyCreditChange(tx, {
        userId: checkout.userId,
        amount: checkout.credits,
        sourceType: 'checkout',
        sourceId: checkout.id,
        description: `${pack?.name ?? checkout.itemId} pack: ${checkout.credits} credits${await promotionNote(tx, checkout)}`,
      });
    } else {
      const plan = findPlan(checkout.itemId);
      if (!plan) throw new Error(`checkout ${checkout.id} names unknown plan ${checkout.itemId}`);
      if (paid.subscription) {
        const { duplicate } = await saveSubscription(tx, paid.subscription, {
          userId: checkout.userId,
          planId: plan.id,
          billingCycle: checkout.billingCycle ?? 'monthly',
        });
        await copyCheckoutLocale(tx, paid.subscription.id, checkout);
        if (duplicate) {
          await releasePromotion(tx, checkout.id);
          // Paid at the provider but refunded after the commit: not a completed purchase.
          await repo.updateCheckout(tx, checkout.id, {
            status: 'canceled',
            completedAt: checkout.completedAt ?? new Date(),
            paymentIntentId: paid.paymentIntentId ?? checkout.paymentIntentId,
            subscriptionId: paid.subscription.id,
          });
          return { ...checkout, status: 'canceled' };
        }
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
        await promotionNote(tx, checkout),
      );
    }
    if (checkout.status !== 'paid') {
      await repo.updateCheckout(tx, checkout.id, {
        status: 'paid',
        completedAt: new Date(),
        paymentIntentId: paid.paymentIntentId ?? checkout.paymentIntentId,
        subscriptionId: paid.subscription?.id ?? checkout.subscriptionId,
      });
      // Issue 37: the payment's receipt and value of a credit, once (it turns paid only once).
      await recordPayment(tx, checkout.id);
    }
    return { ...checkout, status: 'paid' };
  }

  return {
    fulfillCheckout,
    saveSubscription,
    grantPlanCredits,
  };
}

export type Fulfillment = ReturnType<typeof createFulfillment>;
