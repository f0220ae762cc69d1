/**
 * Stripe webhooks. Each event is verified (signature, 300 s tolerance), then stored under its id
 * in the same transaction as its effect: a replay finds the id and changes nothing. Events may
 * arrive in any order; each carries enough (metadata, ids) to reach the right end state alone.
 */
import type { Db } from '../../core/db.ts';
import { badRequest } from '../../core/errors.ts';
import { findPlan, type BillingCycle } from '../../contracts/billing.ts';
import type { PaidCheckout } from './providers/types.ts';
import { readSubscription, type StripeProvider } from './providers/stripe.ts';
import * as repo from './repository.ts';
import type { BillingService } from './service.ts';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {});
const idOf = (value: unknown): string | null =>
  typeof value === 'string'
    ? value
    : typeof obj(value).id === 'string'
      ? (obj(value).id as string)
      : null;

interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

const HANDLED = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'invoice.paid',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'charge.refunded',
]);

/** The owner of a subscription named only by an event: our row, else the checkout's metadata. */
function ownerFromMetadata(
  metadata: Json,
): { userId: string; planId: string; billingCycle: BillingCycle } | null {
  const userId = typeof metadata.userId === 'string' ? metadata.userId : null;
  const planId = typeof metadata.planId === 'string' ? metadata.planId : null;
  if (!userId || !planId || !findPlan(planId)) return null;
  return {
    userId,
    planId,
    billingCycle: metadata.billingCycle === 'yearly' ? 'yearly' : 'monthly',
  };
}

export function createStripeWebhookHandler(deps: {
  db: Db;
  billing: BillingService;
  stripe: StripeProvider;
  log: Logger;
}) {
  const { db, billing, stripe, log } = deps;

  return async function handleStripeWebhook(payload: Buffer, signature: string | undefined) {
    if (!signature) throw badRequest('Missing the Stripe-Signature header.', 'SIGNATURE_MISSING');
    let event: { id: string; type: string; data: { object: unknown } };
    try {
      event = stripe.constructEvent(payload, signature) as unknown as typeof event;
    } catch (error) {
      log.warn({ err: (error as Error).message }, 'stripe webhook refused: bad signature');
      throw badRequest('The Stripe signature is invalid or too old.', 'SIGNATURE_INVALID');
    }
    const object = obj(event.data.object);

    // Provider calls happen before the transaction opens (never hold locks across the network).
    let paid: PaidCheckout | null = null;
    const isCheckout =
      event.type === 'checkout.session.completed' ||
      event.type === 'checkout.session.async_payment_succeeded';
    if (
      isCheckout &&
      (object.payment_status === 'paid' || object.payment_status === 'no_payment_required')
    ) {
      paid = await stripe.paidCheckout(object);
    }

    return db.transaction(async (tx) => {
      const fresh = await repo.recordWebhookEvent(tx, {
        id: event.id,
        provider: 'stripe',
        type: event.type,
        handled: HANDLED.has(event.type),
        payload: event,
      });
      if (!fresh) return { duplicate: true };

      switch (event.type) {
        case 'checkout.session.completed':
        case 'checkout.session.async_payment_succeeded':
          // An unpaid completed session (delayed payment method) waits for async_payment_succeeded.
          if (paid) await billing.fulfillCheckout(tx, paid);
          break;

        case 'invoice.paid': {
          const parent = obj(obj(object.parent).subscription_details);
          const legacy = obj(object.subscription_details);
          const subscriptionId = idOf(parent.subscription) ?? idOf(object.subscription);
          const reason = object.billing_reason;
          if (
            !subscriptionId ||
            (reason !== 'subscription_create' && reason !== 'subscription_cycle')
          )
            break;
          const existing = await repo.findSubscription(tx, subscriptionId);
          const owner = existing ?? ownerFromMetadata(obj(parent.metadata ?? legacy.metadata));
          const plan = owner && findPlan(owner.planId);
          if (!owner || !plan) {
            log.warn(
              { eventId: event.id, subscriptionId },
              'invoice.paid for a subscription we cannot attribute',
            );
            break;
          }
          const line = obj(obj((obj(object.lines).data as unknown[] | undefined)?.[0]).period);
          const start = typeof line.start === 'number' ? new Date(line.start * 1000) : new Date();
          const end = typeof line.end === 'number' ? new Date(line.end * 1000) : start;
          await billing.saveSubscription(
            tx,
            {
              id: subscriptionId,
              status: 'active',
              periodStart: start,
              periodEnd: end,
              cancelAtPeriodEnd: existing?.cancelAtPeriodEnd ?? false,
              canceledAt: existing?.canceledAt ?? null,
              metadata: {},
            },
            owner,
          );
          await billing.grantPlanCredits(
            tx,
            owner.userId,
            plan,
            'stripe_invoice',
            String(object.id),
            `for the period from ${start.toISOString().slice(0, 10)}`,
          );
          break;
        }

        case 'customer.subscription.created':
        case 'customer.subscription.updated':
        case 'customer.subscription.deleted': {
          const sub = readSubscription(object);
          const existing = await repo.findSubscription(tx, sub.id);
          const owner = existing ?? ownerFromMetadata(sub.metadata);
          if (!owner) break;
          if (event.type === 'customer.subscription.deleted') sub.status = 'canceled';
          await billing.saveSubscription(tx, sub, owner);
          break;
        }

        case 'charge.refunded': {
          const paymentIntentId = idOf(object.payment_intent);
          if (!paymentIntentId) break;
          await billing.applyRefund(tx, {
            chargeId: String(object.id),
            paymentIntentId,
            amountCents: Number(object.amount ?? 0),
            refundedCents: Number(object.amount_refunded ?? 0),
          });
          break;
        }

        default:
          // Unknown types are acknowledged (200) so Stripe stops resending them.
          break;
      }
      return { duplicate: false };
    });
  };
}
