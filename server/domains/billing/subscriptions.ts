/**
 * Subscriptions: their status, cancelling now (at the provider and here), and the scheduled
 * grants (yearly plans' monthly credits, local renewals), idempotent per period.
 */
import { notFound } from '../../core/errors.ts';
import type { SubscriptionRow } from '../../db/schema.ts';
import type { SubscriptionInfo } from '../../contracts/billing.ts';
import { findPlan, planPrice, toCents } from '../../../shared/billing.ts';
import type { BillingContext } from './context.ts';
import type { Fulfillment } from './fulfillment.ts';
import { recordRenewal } from './money-event-records.ts';
import { grantYearlyMonth } from './paid-invoices.ts';
import { addCycle } from './providers/local-checkout.ts';
import * as repo from './repository.ts';
import { answerText, msg } from '../../core/api-messages.ts';

function toSubscriptionInfo(row: SubscriptionRow): SubscriptionInfo {
  return {
    planId: row.planId,
    billingCycle: row.billingCycle,
    currentPeriodEnd: Math.floor(row.currentPeriodEnd.getTime() / 1000),
    status: row.status,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
  };
}

export function createSubscriptions(
  { db, provider, log }: BillingContext,
  { grantPlanCredits }: Pick<Fulfillment, 'grantPlanCredits'>,
) {
  return {
    async subscriptionStatus(userId: string) {
      const active = await repo.findActiveSubscription(db, userId);
      return {
        hasActiveSubscription: active !== null,
        subscription: active ? toSubscriptionInfo(active) : null,
      };
    },

    /** Cancels now at the provider and locally (spec: the pricing page cancels immediately). */
    async cancelSubscription(userId: string) {
      const active = await repo.findActiveSubscription(db, userId);
      if (!active) throw notFound(msg('billing.no_subscription'), 'NO_SUBSCRIPTION');
      await provider.cancelSubscription(active.id);
      // Under the user's billing lock: a checkout paid at this moment sees it active or canceled.
      await db.transaction(async (tx) => {
        await repo.lockUserBilling(tx, userId);
        await repo.markSubscriptionCanceled(tx, active.id);
      });
      log.info({ subscriptionId: active.id, userId }, 'subscription canceled');
      return {
        message: answerText('billing.subscription_cancelled'),
        planId: active.planId,
      };
    },

    /**
     * Scheduled grants, idempotent per month: yearly plans get their credits monthly, and local
     * subscriptions renew at the end of their period as Stripe's would.
     */
    async runScheduledGrants(now = new Date()) {
      let granted = 0;
      for (const sub of await repo.dueLocalSubscriptions(db, now)) {
        const plan = findPlan(sub.planId);
        if (!plan) continue;
        let start = sub.currentPeriodEnd;
        for (let i = 0; i < 24 && start <= now; i++) {
          const end = addCycle(start, sub.billingCycle);
          const periodStart = start;
          await db.transaction(async (tx) => {
            await repo.setSubscriptionPeriod(tx, sub.id, periodStart, end);
            const renewalId = `${sub.id}:${periodStart.getTime() / 1000}`;
            const granted = await grantPlanCredits(
              tx,
              sub.userId,
              plan,
              { type: 'local_renewal', id: renewalId },
              periodStart,
            );
            // Issue 37: the renewal's receipt, once per period (the local checkout's price).
            if (!granted.duplicate) {
              await recordRenewal(tx, {
                subscription: sub,
                plan,
                invoiceId: `local:${renewalId}`,
                amountCents: toCents(planPrice(plan, sub.billingCycle)),
                at: periodStart,
              });
            }
          });
          granted += 1;
          start = end;
        }
      }
      // Past-due subscriptions are left out until paid; a disputed or refunded year grants
      // nothing or less (paid-invoices.ts).
      for (const sub of await repo.activeYearlySubscriptions(db)) {
        const plan = findPlan(sub.planId);
        if (!plan) continue;
        for (let month = 1; month < 12; month++) {
          const due = new Date(sub.currentPeriodStart);
          due.setUTCMonth(due.getUTCMonth() + month);
          if (due > now) break;
          if (await db.transaction((tx) => grantYearlyMonth(tx, sub, plan, month))) granted += 1;
        }
      }
      return granted;
    },
  };
}
