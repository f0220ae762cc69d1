/**
 * A plan changed at Stripe (issue 37, item 2: the customer switched plan in the customer portal).
 * Our subscription row follows the price Stripe reports: its plan and cycle are what the pricing
 * page shows and what the next period grants. The credits rule: a period grants the credits of
 * the plan it was paid for, once, so a switch grants nothing by itself and takes nothing back:
 * - the same interval (the portal set to no proration, see README "Billing portal"): the new plan
 *   is charged at the next renewal, and that renewal's invoice grants the new plan's credits;
 * - another interval: Stripe restarts the cycle and charges the new plan at once (an invoice with
 *   billing_reason 'subscription_update' billing a whole period): that invoice grants the new
 *   plan's first month, as a first invoice would (webhooks.ts), keyed by the invoice;
 * - an invoice of prorations only grants nothing;
 * - the months left of a yearly period already paid grant what that year's payment bought
 *   (invoice_payments.credits_per_month, paid-invoices.ts), not the new plan's credits.
 */
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Tx } from '../../core/db.ts';
import { subscriptions, type SubscriptionRow } from '../../db/schema.ts';
import type { Logger } from './context.ts';
import type { PricePlan } from './providers/stripe-prices.ts';

/** Moves `row` to `plan` when the provider reports another one; returns the row as it now is. */
export async function followPlan(
  tx: Tx,
  row: SubscriptionRow | null,
  plan: PricePlan | null | undefined,
  log: Logger,
): Promise<SubscriptionRow | null> {
  if (!row || !plan || row.status === 'canceled') return row;
  if (row.planId === plan.planId && row.billingCycle === plan.billingCycle) return row;
  const [changed] = await tx
    .update(subscriptions)
    .set({ planId: plan.planId, billingCycle: plan.billingCycle, updatedAt: sql`now()` })
    .where(and(eq(subscriptions.id, row.id), ne(subscriptions.status, 'canceled')))
    .returning();
  if (!changed) return row;
  log.info(
    {
      subscriptionId: row.id,
      userId: row.userId,
      from: `${row.planId}/${row.billingCycle}`,
      to: `${plan.planId}/${plan.billingCycle}`,
    },
    'subscription plan changed at the provider',
  );
  return changed;
}

/** Whether a paid subscription invoice pays for a period of credits (see the rule above). */
export function paysForPeriod(invoice: { billingReason: string | null; startsPeriod: boolean }) {
  const reason = invoice.billingReason;
  return (
    reason === 'subscription_create' ||
    reason === 'subscription_cycle' ||
    (reason === 'subscription_update' && invoice.startsPeriod)
  );
}
