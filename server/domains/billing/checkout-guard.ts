/**
 * One subscription per user, at checkout time (issue 16, finding 2): a subscription checkout is
 * refused while the user has an active subscription; with Stripe, the user's open subscription
 * checkout is expired first (so a buyer who closed its tab is not stuck), and refused when
 * Stripe says it was paid. The session is recorded under the user's billing lock, which is never
 * held across a provider call: on PGlite a transaction holds the only connection and on
 * PostgreSQL a pooled one, so a slow provider would stall every request, not just this user's.
 * The lock-free steps are re-checked under the lock; the pay step and the partial unique index
 * stay the last word.
 */
import type { Tx } from '../../core/db.ts';
import { AppError, conflict } from '../../core/errors.ts';
import type { checkoutSessions, CheckoutSessionRow, UserRow } from '../../db/schema.ts';
import type { BillingContext } from './context.ts';
import type { DuplicateSettlement } from './duplicates.ts';
import type { Fulfillment } from './fulfillment.ts';
import type { ProviderSession } from './providers/types.ts';
import * as repo from './repository.ts';
import { msg } from '../../core/api-messages.ts';

/** What a checkout row records, before the provider names the session. */
export type CheckoutOrder = Omit<
  typeof checkoutSessions.$inferInsert,
  'id' | 'provider' | 'expiresAt' | 'status'
>;

const alreadySubscribed = () => conflict(msg('billing.already_subscribed'), 'SUBSCRIPTION_ACTIVE');

/** Still taking payment: open, and not past the expiry the provider gave it. */
const stillOpen = (checkout: CheckoutSessionRow, now: Date) =>
  checkout.status === 'open' && (!checkout.expiresAt || checkout.expiresAt > now);

export function createCheckoutGuard(
  { db, provider, log }: BillingContext,
  deps: Pick<Fulfillment, 'fulfillCheckout'> & DuplicateSettlement,
) {
  return {
    /**
     * Clears the way for a new subscription checkout, or refuses it (409) while a subscription
     * is active or a Stripe checkout of one was paid. Local checkouts may stay open side by side:
     * they cost nothing, and paying one refuses the others.
     */
    async clearWayForSubscription(userId: string): Promise<void> {
      if (await repo.findActiveSubscription(db, userId)) throw alreadySubscribed();
      if (provider.name !== 'stripe') return;
      const now = new Date();
      for (const open of await repo.openSubscriptionCheckouts(db, userId, 'stripe')) {
        if (!stillOpen(open, now)) {
          await repo.closeOpenCheckout(db, open.id, 'expired');
          continue;
        }
        const state = await provider.expireSession(open.id);
        if (state.status === 'expired') {
          await repo.closeOpenCheckout(db, open.id, 'expired');
          log.info(
            { sessionId: open.id, userId },
            'open subscription checkout expired for a new one',
          );
          continue;
        }
        if (state.status === 'paid') {
          // Paid, and its webhook is late: fulfil it now, so the answer and the account agree.
          await db.transaction((tx) => deps.fulfillCheckout(tx, state.paid));
          await deps.settleDuplicateSubscriptions();
          throw alreadySubscribed();
        }
        throw new AppError(409, 'SUBSCRIPTION_PAYMENT_PENDING', msg('billing.payment_pending'));
      }
    },

    /** The customer the session names: the user's stored one, else one made now and stored. */
    async customerFor(user: UserRow): Promise<string | null> {
      if (provider.name !== 'stripe') return null; // the local checkout knows the user's id
      const stored = await repo.findStripeCustomer(db, user.id);
      if (stored) return stored;
      const made = await provider.createCustomer({ userId: user.id, email: user.email });
      return made ? repo.saveStripeCustomer(db, user.id, made) : null;
    },

    /**
     * Records the provider's session under the user's lock. A subscription checkout that finds an
     * active subscription, or another open Stripe subscription checkout (two tabs at once), is
     * recorded expired, expired at the provider and refused.
     */
    async recordCheckout(
      order: CheckoutOrder,
      session: ProviderSession,
      /** Reserves the promotion code's use in this transaction, or answers why not (issue 37). */
      reserve?: (tx: Tx, checkoutId: string) => Promise<AppError | null>,
    ): Promise<void> {
      const refusal = await db.transaction(async (tx) => {
        await repo.lockUserBilling(tx, order.userId);
        let refused: AppError | null = null;
        if (order.kind === 'subscription') {
          const now = new Date();
          if (await repo.findActiveSubscription(tx, order.userId)) refused = alreadySubscribed();
          else if (
            provider.name === 'stripe' &&
            (await repo.openSubscriptionCheckouts(tx, order.userId, 'stripe')).some((c) =>
              stillOpen(c, now),
            )
          ) {
            refused = new AppError(
              409,
              'CHECKOUT_IN_PROGRESS',
              msg('billing.checkout_in_progress'),
            );
          }
        }
        if (!refused && reserve) refused = await reserve(tx, session.id);
        await repo.insertCheckout(tx, {
          ...order,
          id: session.id,
          provider: provider.name,
          expiresAt: session.expiresAt,
          status: refused ? 'expired' : 'open',
        });
        return refused;
      });
      if (!refusal) return;
      await provider.expireSession(session.id).catch((err: unknown) => {
        // Its url was never handed out; if it is paid anyway, fulfilment treats it like any other.
        log.warn({ err, sessionId: session.id }, 'refused checkout could not be expired');
      });
      throw refusal;
    },
  };
}
