/**
 * Billing: checkout creation, the one fulfillment function (run by Stripe's webhook, by the
 * success-page check and by the local checkout), subscriptions and refunds. Amounts and credits
 * come from content/plans.json by id; a client-sent amount is only compared, never trusted.
 */
import type { Config } from '../../config.ts';
import type { Db, Tx } from '../../core/db.ts';
import { AppError, badRequest, conflict, notFound } from '../../core/errors.ts';
import type { CheckoutSessionRow, SubscriptionRow, UserRow } from '../../db/schema.ts';
import {
  CURRENCY,
  PACKS,
  PLANS,
  findPack,
  findPlan,
  planPrice,
  toCents,
  type BillingCycle,
  type PaymentRequest,
  type Plan,
  type SubscriptionInfo,
} from '../../contracts/billing.ts';
import { applyCreditChange, takeBackCredits } from '../credits/service.ts';
import { addCycle, localPayment } from './providers/local-checkout.ts';
import type { CheckoutProvider, PaidCheckout, ProviderSubscription } from './providers/types.ts';
import * as repo from './repository.ts';

export const ALREADY_SUBSCRIBED =
  'You already have an active subscription. Please cancel it first to switch plans.';

interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

const dollars = (n: number) => `${n} ${CURRENCY.toUpperCase()}`;
const day = (d: Date) => d.toISOString().slice(0, 10);

/** The catalogue item a request names, priced on the server; 400 naming an unknown id. */
export function priceRequest(request: PaymentRequest) {
  if (request.currency && request.currency.toLowerCase() !== CURRENCY) {
    throw badRequest(
      `Payments are in ${CURRENCY.toUpperCase()}; '${request.currency}' is not accepted.`,
      'UNSUPPORTED_CURRENCY',
    );
  }
  if (request.type === 'subscription') {
    if (!request.plan_id)
      throw badRequest("Choose a plan: 'plan_id' is required for a subscription.", 'PLAN_REQUIRED');
    const plan = findPlan(request.plan_id);
    if (!plan) {
      throw badRequest(
        `Unknown plan '${request.plan_id}'. Choose one of: ${PLANS.map((p) => p.id).join(', ')}.`,
        'UNKNOWN_PLAN',
      );
    }
    const cycle: BillingCycle = request.billing_cycle ?? 'monthly';
    const price = planPrice(plan, cycle);
    return {
      kind: 'subscription' as const,
      itemId: plan.id,
      itemName: `${plan.name} plan (${cycle})`,
      billingCycle: cycle,
      price,
      credits: plan.credits,
      describe: `${plan.name} (${dollars(price)}/${cycle === 'yearly' ? 'year' : 'month'})`,
    };
  }
  if (!request.package_id)
    throw badRequest("Choose a credit pack: 'package_id' is required.", 'PACK_REQUIRED');
  const pack = findPack(request.package_id);
  if (!pack) {
    throw badRequest(
      `Unknown credit pack '${request.package_id}'. Choose one of: ${PACKS.map((p) => p.id).join(', ')}.`,
      'UNKNOWN_PACK',
    );
  }
  return {
    kind: 'credits' as const,
    itemId: pack.id,
    itemName: `${pack.name} credit pack`,
    billingCycle: null,
    price: pack.price,
    credits: pack.credits,
    describe: `the ${pack.name} pack (${dollars(pack.price)})`,
  };
}

export function toSubscriptionInfo(row: SubscriptionRow): SubscriptionInfo {
  return {
    planId: row.planId,
    billingCycle: row.billingCycle,
    currentPeriodEnd: Math.floor(row.currentPeriodEnd.getTime() / 1000),
    status: row.status,
  };
}

export function createBillingService(deps: {
  db: Db;
  config: Config;
  provider: CheckoutProvider;
  log: Logger;
}) {
  const { db, provider, log } = deps;

  /** Grants one period of a plan's credits, once per source. */
  async function grantPlanCredits(
    tx: Tx,
    userId: string,
    plan: Plan,
    sourceType: string,
    sourceId: string,
    what: string,
  ) {
    await applyCreditChange(tx, {
      userId,
      amount: plan.credits,
      sourceType,
      sourceId,
      description: `${plan.name} plan: ${plan.credits} credits ${what}`,
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
        paid.invoiceId ? 'stripe_invoice' : 'checkout',
        paid.invoiceId ?? checkout.id,
        `for the period from ${day(paid.subscription?.periodStart ?? new Date())}`,
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
        throw conflict(ALREADY_SUBSCRIBED, 'SUBSCRIPTION_ACTIVE');
      }
      const amountCents = toCents(item.price);
      const session = await provider.createSession({
        userId: user.id,
        email: user.email,
        kind: item.kind,
        itemId: item.itemId,
        itemName: item.itemName,
        billingCycle: item.billingCycle,
        amountCents,
        currency: CURRENCY,
        credits: item.credits,
        successUrl: request.success_url,
        cancelUrl: request.cancel_url,
      });
      await repo.insertCheckout(db, {
        id: session.id,
        provider: provider.name,
        userId: user.id,
        kind: item.kind,
        itemId: item.itemId,
        billingCycle: item.billingCycle,
        amountCents,
        currency: CURRENCY,
        credits: item.credits,
        successUrl: request.success_url,
        cancelUrl: request.cancel_url,
      });
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
          if (active) throw conflict(ALREADY_SUBSCRIBED, 'SUBSCRIPTION_ACTIVE');
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
      if (!active) throw notFound('You have no active subscription to cancel.', 'NO_SUBSCRIPTION');
      await provider.cancelSubscription(active.id);
      await repo.markSubscriptionCanceled(db, active.id);
      log.info({ subscriptionId: active.id, userId }, 'subscription canceled');
      return {
        message:
          'Your subscription has been cancelled. Your remaining credits stay in your account.',
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
            await grantPlanCredits(
              tx,
              sub.userId,
              plan,
              'local_renewal',
              `${sub.id}:${periodStart.getTime() / 1000}`,
              `for the period from ${day(periodStart)}`,
            );
          });
          granted += 1;
          start = end;
        }
      }
      for (const sub of await repo.activeYearlySubscriptions(db)) {
        const plan = findPlan(sub.planId);
        if (!plan) continue;
        const startEpoch = Math.floor(sub.currentPeriodStart.getTime() / 1000);
        for (let month = 1; month < 12; month++) {
          const due = new Date(sub.currentPeriodStart);
          due.setUTCMonth(due.getUTCMonth() + month);
          if (due > now) break;
          await db.transaction(async (tx) => {
            const applied = await applyCreditChange(tx, {
              userId: sub.userId,
              amount: plan.credits,
              sourceType: 'subscription_month',
              sourceId: `${sub.id}:${startEpoch}:${month}`,
              description: `${plan.name} plan (yearly): ${plan.credits} credits for month ${month + 1}`,
            });
            if (!applied.duplicate) granted += 1;
          });
        }
      }
      return granted;
    },

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

export type BillingService = ReturnType<typeof createBillingService>;
