/**
 * Stripe webhooks. Each event is verified (signature, 300 s tolerance), read into typed values
 * by the Stripe adapter (providers/stripe-events.ts), then stored under its id in the same
 * transaction as its effect: a replay finds the id and changes nothing. Events may arrive in any
 * order; each carries enough (metadata, ids) to reach the right end state alone. Each handled
 * type has its own small function below (`handlers`); other types are stored and acknowledged.
 * Refunds and disputes of a payment find what it granted through refunds.ts and disputes.ts.
 */
import type { Db, Tx } from '../../core/db.ts';
import { badRequest } from '../../core/errors.ts';
import { findPlan, type BillingCycle } from '../../../shared/billing.ts';
import type { Logger } from './context.ts';
import { recordRenewal } from './money-event-records.ts';
import { recordInvoicePayment } from './paid-invoices.ts';
import * as payments from './payments-repository.ts';
import { followPlan, paysForPeriod } from './plan-changes.ts';
import type { EventOf, HandledEvent, HandledEventType } from './providers/stripe-events.ts';
import type { StripeProvider } from './providers/stripe.ts';
import * as repo from './repository.ts';
import type { BillingService } from './service.ts';
import { msg } from '../../core/api-messages.ts';

type Handlers = { [T in HandledEventType]: (tx: Tx, event: EventOf<T>) => Promise<void> };

/** The owner of a subscription named only by an event: our row, else the checkout's metadata. */
function ownerFromMetadata(
  metadata: Record<string, unknown>,
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

  /** A paid session is fulfilled; an unpaid one (delayed payment) waits for async_payment_succeeded. */
  async function fulfillPaidCheckout(
    tx: Tx,
    event: EventOf<'checkout.session.completed' | 'checkout.session.async_payment_succeeded'>,
  ) {
    if (event.paid) await billing.fulfillCheckout(tx, event.paid);
  }

  /** A subscription's first or next period is paid: save the period, grant its credits. */
  async function grantInvoicePeriod(tx: Tx, event: EventOf<'invoice.paid'>) {
    const { invoice } = event;
    const reason = invoice.billingReason;
    const subscriptionId = invoice.subscriptionId;
    if (!subscriptionId || !paysForPeriod(invoice)) return;
    // A plan switched to another interval is charged by this invoice (plan-changes.ts).
    const found = await repo.findSubscription(tx, subscriptionId);
    const existing = await followPlan(tx, found, invoice.plan, log);
    const owner = existing ?? ownerFromMetadata(invoice.metadata);
    const plan = owner && findPlan(owner.planId);
    if (!owner || !plan) {
      log.warn(
        { eventId: event.id, subscriptionId },
        'invoice.paid for a subscription we cannot attribute',
      );
      return;
    }
    const start = invoice.periodStart ?? new Date();
    const end = invoice.periodEnd ?? start;
    const { row, duplicate } = await billing.saveSubscription(
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
    // A second active subscription grants nothing; it is cancelled and refunded after the commit.
    if (duplicate) return;
    const granted = await billing.grantPlanCredits(
      tx,
      owner.userId,
      plan,
      { type: 'stripe_invoice', id: invoice.id },
      start,
    );
    // Issue 37: a renewal's receipt (or a switch to another interval's, a new period paid), once;
    // the first invoice's is the checkout's payment.
    if (reason !== 'subscription_create' && !granted.duplicate) {
      await recordRenewal(tx, {
        subscription: row,
        plan,
        invoiceId: invoice.id,
        amountCents: invoice.amountPaidCents,
      });
    }
  }

  /** Created, updated or deleted at Stripe: our row follows (deleted means canceled). */
  async function saveSubscriptionChange(
    tx: Tx,
    event: EventOf<
      | 'customer.subscription.created'
      | 'customer.subscription.updated'
      | 'customer.subscription.deleted'
    >,
  ) {
    const sub = event.subscription;
    // A plan switched in the customer portal: our row follows the new price (plan-changes.ts).
    const existing = await followPlan(tx, await repo.findSubscription(tx, sub.id), sub.plan, log);
    const owner = existing ?? ownerFromMetadata(sub.metadata);
    if (!owner) return;
    const status = event.type === 'customer.subscription.deleted' ? 'canceled' : sub.status;
    await billing.saveSubscription(tx, { ...sub, status }, owner);
  }

  /**
   * Records the payment behind a paid subscription invoice (after grantInvoicePeriod saved the
   * subscription and granted the period), so a refund or dispute of it finds its credits.
   */
  async function recordPaidInvoice(tx: Tx, event: EventOf<'invoice.paid'>) {
    const { invoice } = event;
    if (!invoice.payment || !invoice.subscriptionId) return;
    const sub = await repo.findSubscription(tx, invoice.subscriptionId);
    const plan = sub && findPlan(sub.planId);
    if (!sub || !plan) return;
    await recordInvoicePayment(
      tx,
      {
        invoiceId: invoice.id,
        subscriptionId: sub.id,
        userId: sub.userId,
        ...invoice.payment,
        amountCents: invoice.amountPaidCents,
        periodStart: invoice.periodStart ?? sub.currentPeriodStart,
      },
      plan,
    );
  }

  /**
   * A declined invoice: the subscription is past due (still active for the spec, but a yearly
   * plan's monthly credits wait until it is paid). A notice for an invoice since paid is stale.
   */
  async function markPastDue(tx: Tx, event: EventOf<'invoice.payment_failed'>) {
    const { invoice } = event;
    if (!invoice.subscriptionId) return;
    if (await payments.markSubscriptionPastDue(tx, invoice.subscriptionId, invoice.id)) {
      log.info(
        { subscriptionId: invoice.subscriptionId, invoiceId: invoice.id },
        'subscription past due',
      );
    }
  }

  /** A session that ended unpaid: expired, or its delayed payment failed. Nothing is granted. */
  async function endUnpaidCheckout(
    tx: Tx,
    event: EventOf<'checkout.session.expired' | 'checkout.session.async_payment_failed'>,
  ) {
    const status = event.type === 'checkout.session.expired' ? 'expired' : 'failed';
    await repo.closeOpenCheckout(tx, event.sessionId, status);
  }

  /** A refunded pack or subscription invoice takes its credits back (never below zero). */
  async function takeBackRefund(tx: Tx, event: EventOf<'charge.refunded'>) {
    await billing.applyRefund(tx, event.refund);
  }

  const handlers: Handlers = {
    'checkout.session.completed': fulfillPaidCheckout,
    'checkout.session.async_payment_succeeded': fulfillPaidCheckout,
    'checkout.session.expired': endUnpaidCheckout,
    'checkout.session.async_payment_failed': endUnpaidCheckout,
    'invoice.paid': async (tx, event) => {
      await grantInvoicePeriod(tx, event);
      await recordPaidInvoice(tx, event);
    },
    'invoice.payment_failed': markPastDue,
    'customer.subscription.created': saveSubscriptionChange,
    'customer.subscription.updated': saveSubscriptionChange,
    'customer.subscription.deleted': saveSubscriptionChange,
    'charge.refunded': takeBackRefund,
    'charge.dispute.created': (tx, event) => billing.openDispute(tx, event.dispute),
    'charge.dispute.closed': (tx, event) => billing.closeDispute(tx, event.dispute),
  };

  function verify(payload: Buffer, signature: string | undefined) {
    if (!signature) throw badRequest(msg('billing.signature_missing'), 'SIGNATURE_MISSING');
    try {
      return stripe.verifyEvent(payload, signature);
    } catch (error) {
      log.warn({ err: (error as Error).message }, 'stripe webhook refused: bad signature');
      throw badRequest(msg('billing.signature_invalid'), 'SIGNATURE_INVALID');
    }
  }

  return async function handleStripeWebhook(payload: Buffer, signature: string | undefined) {
    // Provider calls happen before the transaction opens (never hold locks across the network).
    const event = await stripe.readEvent(verify(payload, signature));
    const result = await db.transaction(async (tx) => {
      const fresh = await repo.recordWebhookEvent(tx, {
        id: event.id,
        provider: 'stripe',
        type: event.type,
        handled: event.handled !== null,
        payload: event.payload,
      });
      if (!fresh) return { duplicate: true };
      if (event.handled) {
        // Each handler takes its own type's event; TypeScript cannot pair them through the map.
        const handle = handlers[event.handled.type] as (tx: Tx, e: HandledEvent) => Promise<void>;
        await handle(tx, event.handled);
      }
      return { duplicate: false };
    });
    // A duplicate subscription the event stored is cancelled and refunded once it is committed.
    if (!result.duplicate) await billing.settleDuplicateSubscriptions();
    return result;
  };
}
