/** SQL for checkouts, subscriptions and webhook events. Every function takes `db | tx` first. */
import { and, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db.ts';
import {
  checkoutSessions,
  subscriptions,
  webhookEvents,
  type CheckoutSessionRow,
  type SubscriptionRow,
} from '../../db/schema.ts';

/** Statuses under which a subscription counts as active (spec: "while active"). */
export const ACTIVE_STATUSES = ['active', 'trialing', 'past_due'];

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

/** Active yearly subscriptions (their credits are granted month by month). */
export async function activeYearlySubscriptions(db: DbOrTx): Promise<SubscriptionRow[]> {
  return db
    .select()
    .from(subscriptions)
    .where(
      and(eq(subscriptions.billingCycle, 'yearly'), inArray(subscriptions.status, ACTIVE_STATUSES)),
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
