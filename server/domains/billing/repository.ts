/** SQL for checkouts, subscriptions and webhook events. Every function takes `db | tx` first. */
import { and, asc, desc, eq, inArray, isNull, lte, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db.ts';
import {
  ACTIVE_SUBSCRIPTION_STATUSES,
  checkoutSessions,
  duplicateSubscriptions,
  stripeCustomers,
  subscriptions,
  webhookEvents,
  type CheckoutSessionRow,
  type DuplicateSubscriptionRow,
  type SubscriptionRow,
} from '../../db/schema.ts';
import { closeCheckoutReleasing } from './promotions/repository.ts';

/** Statuses under which a subscription counts as active (spec: "while active"); one per user. */
export const ACTIVE_STATUSES = ACTIVE_SUBSCRIPTION_STATUSES;

/** The advisory-lock class of billing's per-user locks (the second key is the user's hash). */
const USER_BILLING_LOCK = 727_100;

/**
 * Serializes the user's checkout creation and fulfillment until the transaction ends, across
 * processes: the check for an active subscription and the write that starts one become one step.
 * Reentrant within a transaction; two users whose ids hash alike only take turns.
 */
export async function lockUserBilling(tx: DbOrTx, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${USER_BILLING_LOCK}, hashtext(${userId}))`);
}

/** Whether `error` is the unique violation of one active subscription per user. */
export function isSecondActiveSubscription(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, constraint, constraint_name } = e as Record<string, unknown>;
    if (code === '23505')
      return (constraint ?? constraint_name) === 'subscriptions_one_active_per_user';
  }
  return false;
}

export async function insertCheckout(db: DbOrTx, row: typeof checkoutSessions.$inferInsert) {
  await db.insert(checkoutSessions).values(row);
}

export async function findCheckout(
  db: DbOrTx,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<CheckoutSessionRow | null> {
  const query = db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)).limit(1);
  const [row] = opts.forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

export async function findCheckoutByPaymentIntent(
  db: DbOrTx,
  paymentIntentId: string,
): Promise<CheckoutSessionRow | null> {
  const [row] = await db
    .select()
    .from(checkoutSessions)
    .where(eq(checkoutSessions.paymentIntentId, paymentIntentId))
    .limit(1)
    .for('update');
  return row ?? null;
}

export async function updateCheckout(
  db: DbOrTx,
  id: string,
  changes: Partial<typeof checkoutSessions.$inferInsert>,
): Promise<void> {
  await db.update(checkoutSessions).set(changes).where(eq(checkoutSessions.id, id));
}

/**
 * Ends an open checkout unpaid (canceled, expired, or its delayed payment failed), giving back
 * the promotion code's use it reserved in the same statement; false when it was paid or closed
 * first.
 */
export async function closeOpenCheckout(
  db: DbOrTx,
  id: string,
  status: 'canceled' | 'expired' | 'failed',
): Promise<boolean> {
  return closeCheckoutReleasing(db, id, status);
}

/** The user's open subscription checkouts at `provider`, oldest first. */
export async function openSubscriptionCheckouts(
  db: DbOrTx,
  userId: string,
  provider: CheckoutSessionRow['provider'],
): Promise<CheckoutSessionRow[]> {
  return db
    .select()
    .from(checkoutSessions)
    .where(
      and(
        eq(checkoutSessions.userId, userId),
        eq(checkoutSessions.provider, provider),
        eq(checkoutSessions.kind, 'subscription'),
        eq(checkoutSessions.status, 'open'),
      ),
    )
    .orderBy(asc(checkoutSessions.createdAt));
}

export async function findSubscription(db: DbOrTx, id: string): Promise<SubscriptionRow | null> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id)).limit(1);
  return row ?? null;
}

/** The user's newest active subscription, or null. */
export async function findActiveSubscription(
  db: DbOrTx,
  userId: string,
): Promise<SubscriptionRow | null> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, ACTIVE_STATUSES)))
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  return row ?? null;
}

/** The user's active subscription other than `exceptId`, or null. */
export async function findOtherActiveSubscription(
  db: DbOrTx,
  userId: string,
  exceptId: string,
): Promise<SubscriptionRow | null> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, userId),
        inArray(subscriptions.status, ACTIVE_STATUSES),
        ne(subscriptions.id, exceptId),
      ),
    )
    .limit(1);
  return row ?? null;
}

/**
 * Creates or updates a subscription from a provider event. Events can arrive out of order, so a
 * canceled subscription stays canceled, 'incomplete' never replaces a later status, and the
 * period only moves forward.
 */
export async function upsertSubscription(
  db: DbOrTx,
  row: typeof subscriptions.$inferInsert,
): Promise<SubscriptionRow> {
  const [saved] = await db
    .insert(subscriptions)
    .values(row)
    .onConflictDoUpdate({
      target: subscriptions.id,
      set: {
        status: sql`case
          when ${subscriptions.status} = 'canceled' then 'canceled'
          when excluded.status = 'incomplete' then ${subscriptions.status}
          else excluded.status end`,
        currentPeriodStart: sql`greatest(${subscriptions.currentPeriodStart}, excluded.current_period_start)`,
        currentPeriodEnd: sql`greatest(${subscriptions.currentPeriodEnd}, excluded.current_period_end)`,
        cancelAtPeriodEnd: sql`excluded.cancel_at_period_end`,
        canceledAt: sql`coalesce(${subscriptions.canceledAt}, excluded.canceled_at)`,
        updatedAt: sql`now()`,
      },
    })
    .returning();
  return saved!;
}

export async function markSubscriptionCanceled(db: DbOrTx, id: string): Promise<void> {
  await db
    .update(subscriptions)
    .set({
      status: 'canceled',
      canceledAt: sql`coalesce(${subscriptions.canceledAt}, now())`,
      updatedAt: sql`now()`,
    })
    .where(eq(subscriptions.id, id));
}

export async function setSubscriptionPeriod(
  db: DbOrTx,
  id: string,
  periodStart: Date,
  periodEnd: Date,
): Promise<void> {
  await db
    .update(subscriptions)
    .set({ currentPeriodStart: periodStart, currentPeriodEnd: periodEnd, updatedAt: sql`now()` })
    .where(eq(subscriptions.id, id));
}

/**
 * Yearly subscriptions in good standing (their credits are granted month by month). A past-due
 * one still counts as active for buying, but earns no monthly credits until its invoice is paid.
 */
export async function activeYearlySubscriptions(db: DbOrTx): Promise<SubscriptionRow[]> {
  return db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.billingCycle, 'yearly'),
        inArray(subscriptions.status, ['active', 'trialing']),
      ),
    );
}

/** Local subscriptions whose period has ended (the local adapter renews them like Stripe would). */
export async function dueLocalSubscriptions(db: DbOrTx, now: Date): Promise<SubscriptionRow[]> {
  return db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.provider, 'local'),
        inArray(subscriptions.status, ACTIVE_STATUSES),
        lte(subscriptions.currentPeriodEnd, now),
      ),
    );
}

/** Records an event id; false when it was recorded before (a replay). */
export async function recordWebhookEvent(
  db: DbOrTx,
  event: { id: string; provider: string; type: string; handled: boolean; payload: unknown },
): Promise<boolean> {
  const inserted = await db
    .insert(webhookEvents)
    .values(event)
    .onConflictDoNothing()
    .returning({ id: webhookEvents.id });
  return inserted.length > 0;
}

export async function findStripeCustomer(db: DbOrTx, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ customerId: stripeCustomers.customerId })
    .from(stripeCustomers)
    .where(eq(stripeCustomers.userId, userId))
    .limit(1);
  return row?.customerId ?? null;
}

/** Stores the user's customer; the one stored first wins and is returned. */
export async function saveStripeCustomer(
  db: DbOrTx,
  userId: string,
  customerId: string,
): Promise<string> {
  await db.insert(stripeCustomers).values({ userId, customerId }).onConflictDoNothing();
  return (await findStripeCustomer(db, userId)) ?? customerId;
}

/** Records a duplicate subscription to settle at the provider (once per subscription). */
export async function insertDuplicateSubscription(
  db: DbOrTx,
  row: typeof duplicateSubscriptions.$inferInsert,
): Promise<void> {
  await db.insert(duplicateSubscriptions).values(row).onConflictDoNothing();
}

export async function isDuplicateSubscription(db: DbOrTx, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: duplicateSubscriptions.subscriptionId })
    .from(duplicateSubscriptions)
    .where(eq(duplicateSubscriptions.subscriptionId, id))
    .limit(1);
  return row !== undefined;
}

/**
 * Claims up to `limit` unsettled duplicates that are due, leasing each for `leaseSeconds` so
 * instances sweeping at once do not work on the same one; no lock is held afterwards.
 */
export async function claimDueDuplicates(
  db: DbOrTx,
  provider: DuplicateSubscriptionRow['provider'],
  limit: number,
  leaseSeconds: number,
): Promise<DuplicateSubscriptionRow[]> {
  const due = db
    .select({ id: duplicateSubscriptions.subscriptionId })
    .from(duplicateSubscriptions)
    .where(
      and(
        isNull(duplicateSubscriptions.settledAt),
        eq(duplicateSubscriptions.provider, provider),
        lte(duplicateSubscriptions.nextAttemptAt, sql`now()`),
      ),
    )
    .orderBy(asc(duplicateSubscriptions.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(duplicateSubscriptions)
    .set({ nextAttemptAt: sql`now() + make_interval(secs => ${leaseSeconds})` })
    .where(inArray(duplicateSubscriptions.subscriptionId, due))
    .returning();
}

export async function markDuplicateSettled(db: DbOrTx, id: string): Promise<void> {
  await db
    .update(duplicateSubscriptions)
    .set({ settledAt: sql`now()`, lastError: null })
    .where(eq(duplicateSubscriptions.subscriptionId, id));
}

/** A failed attempt: the next one waits 1, 2, 4 … minutes, at most an hour. */
export async function markDuplicateFailed(db: DbOrTx, id: string, error: string): Promise<void> {
  await db
    .update(duplicateSubscriptions)
    .set({
      attempts: sql`${duplicateSubscriptions.attempts} + 1`,
      lastError: error.slice(0, 500),
      nextAttemptAt: sql`now() + make_interval(mins => least(60, power(2, ${duplicateSubscriptions.attempts})::int))`,
    })
    .where(eq(duplicateSubscriptions.subscriptionId, id));
}
