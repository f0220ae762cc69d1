/**
 * Checkouts: creating one for a plan or a pack (priced on the server; a client-sent amount is
 * only compared, never trusted), where one stands, and the local checkout's pay and cancel.
 * A paid checkout is fulfilled by fulfillment.ts, whoever notices first.
 */
import { AppError, badRequest, conflict, notFound } from '../../core/errors.ts';
import type { CheckoutSessionRow, UserRow } from '../../db/schema.ts';
import type { PaymentRequest } from '../../contracts/billing.ts';
import { CURRENCY, toCents } from '../../../shared/billing.ts';
import { createCheckoutGuard } from './checkout-guard.ts';
import type { BillingContext } from './context.ts';
import type { DuplicateSettlement } from './duplicates.ts';
import type { Fulfillment } from './fulfillment.ts';
import { priceRequest } from './pricing.ts';
import { createPromotionChecks } from './promotions/checks.ts';
import { DEFAULT_LOCALE } from '../../../shared/locales.ts';
import { localPayment } from './providers/local-checkout.ts';
import * as repo from './repository.ts';
import { checkoutReturnUrls } from './return-urls.ts';
import { msg } from '../../core/api-messages.ts';

const alreadySubscribed = () => conflict(msg('billing.already_subscribed'), 'SUBSCRIPTION_ACTIVE');

export function createCheckouts(
  context: BillingContext,
  deps: Pick<Fulfillment, 'fulfillCheckout'> & DuplicateSettlement,
) {
  const { db, provider, log } = context;
  const { fulfillCheckout, settleDuplicateSubscriptions } = deps;
  const guard = createCheckoutGuard(context, deps);
  const promotions = createPromotionChecks(context);
  return {
    /** Spec 7 "create-payment-intent": a hosted checkout for a plan or a pack. */
    async createCheckout(user: UserRow, request: PaymentRequest, publicSiteUrl: string) {
      const item = priceRequest(request);
      if (request.amount !== undefined && toCents(request.amount) !== toCents(item.price)) {
        throw badRequest(
          msg('billing.amount_mismatch', { amount: request.amount, item: item.describe }),
          'AMOUNT_MISMATCH',
        );
      }
      // Built from PUBLIC_SITE_URL, never from the request's Host (issue 16, finding 7).
      const returnUrls = checkoutReturnUrls(request, publicSiteUrl);
      // One subscription per user (issue 16, finding 2): see checkout-guard.ts.
      if (item.kind === 'subscription') await guard.clearWayForSubscription(user.id);
      // A promotion code is checked before anything is made, and reserved with the row below.
      const priced = { ...item, listCents: toCents(item.price) };
      const code = request.promotion_code
        ? await promotions.apply(user.id, request.promotion_code, priced)
        : null;
      const discountCents = code?.discountCents ?? 0;
      // What the provider is asked for is what our row records.
      const order = {
        userId: user.id,
        kind: item.kind,
        itemId: item.itemId,
        billingCycle: item.billingCycle,
        amountCents: priced.listCents - discountCents,
        currency: CURRENCY,
        credits: item.credits,
        promotionCodeId: code?.code.id ?? null,
        discountCents,
        locale: request.locale ?? DEFAULT_LOCALE,
        ...returnUrls,
      };
      const session = await provider.createSession({
        ...order,
        email: user.email,
        itemName: item.itemName,
        customerId: await guard.customerFor(user),
        discount: code
          ? { cents: discountCents, providerCodeId: code.code.stripePromotionCodeId }
          : null,
      });
      await guard.recordCheckout(
        order,
        session,
        code
          ? (tx, checkoutId) =>
              promotions.reserveIn(tx, code, { userId: user.id, checkoutId, item: priced })
          : undefined,
      );
      log.info({ sessionId: session.id, userId: user.id, item: item.itemId }, 'checkout created');
      return { sessionId: session.id, url: session.url };
    },

    /** Where a checkout stands; asks the provider (and fulfills) when our row is still open. */
    async checkoutStatus(userId: string, sessionId: string) {
      let checkout = await repo.findCheckout(db, sessionId);
      if (!checkout || checkout.userId !== userId) {
        throw notFound(msg('billing.checkout_not_yours'), 'CHECKOUT_NOT_FOUND');
      }
      if (checkout.status === 'open' && checkout.provider === 'stripe') {
        const state = await provider.retrieveSession(sessionId);
        if (state.status === 'paid') {
          checkout = (await db.transaction((tx) => fulfillCheckout(tx, state.paid))) ?? checkout;
          await settleDuplicateSubscriptions();
        } else if (state.status === 'expired') {
          await repo.closeOpenCheckout(db, sessionId, 'expired');
          checkout = { ...checkout, status: 'expired' };
        }
      }
      return {
        sessionId,
        status: checkout.status,
        type: checkout.kind,
        credits: checkout.credits,
        item_id: checkout.itemId,
        billing_cycle:
          checkout.kind === 'subscription' ? (checkout.billingCycle ?? 'monthly') : null,
        amount: checkout.amountCents / 100,
        currency: checkout.currency,
      };
    },

    /**
     * The local checkout's Pay button: the same fulfillment as Stripe's webhook, under the
     * user's billing lock, so of several subscription checkouts paid at once one starts the
     * subscription and the others answer 409 (the unique index backs this up: never a 500).
     */
    async payLocalCheckout(sessionId: string): Promise<CheckoutSessionRow> {
      const found = await repo.findCheckout(db, sessionId);
      if (!found || found.provider !== 'local')
        throw notFound(msg('billing.checkout_not_found'), 'CHECKOUT_NOT_FOUND');
      try {
        return await db.transaction(async (tx) => {
          await repo.lockUserBilling(tx, found.userId);
          const checkout = (await repo.findCheckout(tx, sessionId, { forUpdate: true })) ?? found;
          if (checkout.status === 'canceled' || checkout.status === 'expired') {
            throw new AppError(
              409,
              'CHECKOUT_CANCELED',
              msg('billing.checkout_ended', { status: checkout.status }),
            );
          }
          if (checkout.status === 'paid') return checkout; // paying twice grants once
          if (checkout.kind === 'subscription') {
            if (await repo.findActiveSubscription(tx, checkout.userId)) throw alreadySubscribed();
          }
          const fulfilled = await fulfillCheckout(
            tx,
            localPayment(checkout.id, checkout.kind, checkout.billingCycle),
          );
          return fulfilled ?? checkout;
        });
      } catch (error) {
        if (repo.isSecondActiveSubscription(error)) throw alreadySubscribed();
        throw error;
      }
    },

    /** The local checkout's Cancel button; a checkout paid first stays paid (409). */
    async cancelLocalCheckout(sessionId: string): Promise<CheckoutSessionRow> {
      const checkout = await repo.findCheckout(db, sessionId);
      if (!checkout || checkout.provider !== 'local')
        throw notFound(msg('billing.checkout_not_found'), 'CHECKOUT_NOT_FOUND');
      // Only an open checkout turns canceled: a Pay that won the race keeps its payment.
      if (!(await repo.closeOpenCheckout(db, sessionId, 'canceled'))) {
        const now = await repo.findCheckout(db, sessionId);
        if (now?.status === 'paid') {
          throw new AppError(409, 'CHECKOUT_PAID', msg('billing.checkout_paid'));
        }
      }
      return checkout;
    },

    findCheckout: (id: string) => repo.findCheckout(db, id),
  };
}
