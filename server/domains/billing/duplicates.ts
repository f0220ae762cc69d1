/**
 * Settling duplicate subscriptions (issue 16, finding 2): a subscription that arrived while the
 * user already had an active one was stored canceled, granting nothing (fulfillment.ts). After
 * that commit, never inside it, it is cancelled at the provider and its payment refunded. Both
 * calls are idempotent (an already cancelled subscription is fine, the refund carries an
 * Idempotency-Key), so a retry or two instances at once never refund twice; a failed attempt is
 * retried by the billing plugin's sweep with a growing delay.
 */
import type { BillingContext } from './context.ts';
import * as repo from './repository.ts';

/** How long a claimed duplicate is left to its claimer before another sweep may take it. */
const CLAIM_SECONDS = 300;

export function createDuplicateSettlement({ db, provider, log }: BillingContext) {
  return {
    /** Cancels and refunds the duplicates that are due; the number settled. Never throws. */
    async settleDuplicateSubscriptions(limit = 20): Promise<number> {
      let settled = 0;
      try {
        for (const dup of await repo.claimDueDuplicates(db, provider.name, limit, CLAIM_SECONDS)) {
          const subscriptionId = dup.subscriptionId;
          try {
            await provider.cancelSubscription(subscriptionId);
            if (dup.refund) await provider.refundSubscription(subscriptionId);
            await repo.markDuplicateSettled(db, subscriptionId);
            settled += 1;
            log.info(
              { subscriptionId, keptSubscriptionId: dup.keptSubscriptionId, refunded: dup.refund },
              'duplicate subscription cancelled at the provider',
            );
          } catch (err) {
            await repo.markDuplicateFailed(
              db,
              subscriptionId,
              (err as Error).message ?? String(err),
            );
            log.warn({ err, subscriptionId }, 'duplicate subscription not settled yet; will retry');
          }
        }
      } catch (err) {
        log.warn({ err }, 'duplicate subscription sweep failed; will retry');
      }
      return settled;
    },
  };
}

export type DuplicateSettlement = ReturnType<typeof createDuplicateSettlement>;
