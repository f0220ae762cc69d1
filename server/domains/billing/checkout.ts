/**
 * Checkouts: creating one for a plan or a pack (priced on the server; a client-sent amount is
 * only compared, never trusted), where one stands, and the local checkout's pay and cancel.
 * A paid checkout is fulfilled by fulfillment.ts, whoever notices first.
 */
import { AppError, badRequest, conflict, notFound } from '../../core/errors.ts';
import type { CheckoutSessionRow, UserRow } from '../../db/schema.ts';
import type { PaymentRequest } from '../../contracts/billing.ts';
import { BILLING_MESSAGES, CURRENCY, toCents } from '../../../shared/billing.ts';
import type { BillingContext } from './context.ts';
import type { Fulfillment } from './fulfillment.ts';
import { priceRequest } from './pricing.ts';
import { localPayment } from './providers/local-checkout.ts';
import * as repo from './repository.ts';

export function createCheckouts(
  { db, provider, log }: BillingContext,
  { fulfillCheckout }: Pick<Fulfillment, 'fulfillCheckout'>,
) {
  return {
    /** Spec 7 "create-payment-intent": a hosted checkout for a plan or a pack. */
    async createCheckout(user: UserRow, request: PaymentRequest, allowedOrigins: string[]) {
      const item = priceRequest(request);
      if (request.amount !== undefined && toCents(request.amount) !== toCents(item.price)) {
        throw badRequest(
          `The amount ${request.amount} does not match the price of ${item.describe}. Reload the pricing page and try again.`,
          'AMOUNT_MISMATCH',
        );
      }
      for (const [name, url] of [
        ['success_url', request.success_url],
        ['cancel_url', request.cancel_url],
      ] as const) {
        let origin: string;
        try {
          origin = new URL(url).origin;
        } catch {
          throw badRequest(`'${name}' must be an absolute URL of this site.`, 'INVALID_RETURN_URL');
        }
        if (!allowedOrigins.includes(origin)) {
          throw badRequest(`'${name}' must be a page of this site.`, 'INVALID_RETURN_URL');
        }
      }
      if (item.kind === 'subscription' && (await repo.findActiveSubscription(db, user.id))) {
        throw conflict(BILLING_MESSAGES.alreadySubscribed, 'SUBSCRIPTION_ACTIVE');
      }
      // What the provider is asked for is what our row records.
      const order = {
        userId: user.id,
        kind: item.kind,
        itemId: item.itemId,
        billingCycle: item.billingCycle,
        amountCents: toCents(item.price),
        currency: CURRENCY,
        credits: item.credits,
        successUrl: request.success_url,
        cancelUrl: request.cancel_url,
      };
      const session = await provider.createSession({
        ...order,
        email: user.email,
        itemName: item.itemName,
      });
      await repo.insertCheckout(db, { ...order, id: session.id, provider: provider.name });
      log.info({ sessionId: session.id, userId: user.id, item: item.itemId }, 'checkout created');
      return { sessionId: session.id, url: session.url };
    },

    /** Where a checkout stands; asks the provider (and fulfills) when our row is still open. */
    async checkoutStatus(userId: string, sessionId: string) {
      let checkout = await repo.findCheckout(db, sessionId);
      if (!checkout || checkout.userId !== userId) {
        throw notFound('No checkout with that id belongs to you.', 'CHECKOUT_NOT_FOUND');
      }
      if (checkout.status === 'open' && checkout.provider === 'stripe') {
        const state = await provider.retrieveSession(sessionId);
        if (state.status === 'paid') {
          checkout = (await db.transaction((tx) => fulfillCheckout(tx, state.paid))) ?? checkout;
        } else if (state.status === 'expired') {
          await repo.updateCheckout(db, sessionId, { status: 'expired' });
          checkout = { ...checkout, status: 'expired' };
        }
      }
      return { sessionId, status: checkout.status, type: checkout.kind, credits: checkout.credits };
    },

    /** The local checkout's Pay button: the same fulfillment as Stripe's webhook. */
    async payLocalCheckout(sessionId: string): Promise<CheckoutSessionRow> {
      return db.transaction(async (tx) => {
        const checkout = await repo.findCheckout(tx, sessionId, { forUpdate: true });
        if (!checkout || checkout.provider !== 'local')
          throw notFound('This checkout does not exist.', 'CHECKOUT_NOT_FOUND');
        if (checkout.status === 'canceled') {
          throw new AppError(
            409,
            'CHECKOUT_CANCELED',
            'This checkout was cancelled. Start a new purchase from the pricing page.',
          );
        }
        if (checkout.status === 'paid') return checkout; // paying twice grants once
        if (checkout.kind === 'subscription') {
          const active = await repo.findActiveSubscription(tx, checkout.userId);
          if (active) throw conflict(BILLING_MESSAGES.alreadySubscribed, 'SUBSCRIPTION_ACTIVE');
        }
        const fulfilled = await fulfillCheckout(
          tx,
          localPayment(checkout.id, checkout.kind, checkout.billingCycle),
        );
        return fulfilled ?? checkout;
      });
    },

    async cancelLocalCheckout(sessionId: string): Promise<CheckoutSessionRow> {
      const checkout = await repo.findCheckout(db, sessionId);
      if (!checkout || checkout.provider !== 'local')
        throw notFound('This checkout does not exist.', 'CHECKOUT_NOT_FOUND');
      if (checkout.status === 'open')
        await repo.updateCheckout(db, sessionId, { status: 'canceled' });
      return checkout;
    },

    findCheckout: (id: string) => repo.findCheckout(db, id),
  };
}
