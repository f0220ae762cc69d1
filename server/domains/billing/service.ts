/**
 * Billing: checkouts (checkout.ts, checkout-guard.ts), what a payment grants (fulfillment.ts,
 * shared with Stripe's webhook), duplicate subscriptions settled at the provider (duplicates.ts)
 * and subscriptions (subscriptions.ts), as one service. Amounts and credits come from
 * content/plans.json by id (pricing.ts); a client-sent amount is only compared, never trusted.
 */
import type { Config } from '../../config.ts';
import type { Db } from '../../core/db.ts';
import { createCheckouts } from './checkout.ts';
import { createDisputes } from './disputes.ts';
import { createDuplicateSettlement } from './duplicates.ts';
import { createFulfillment } from './fulfillment.ts';
import type { Logger } from './context.ts';
import type { CheckoutProvider } from './providers/types.ts';
import { createPromotionAdmin } from './promotions/admin.ts';
import { createPromotionChecks } from './promotions/checks.ts';
import { createRefunds } from './refunds.ts';
import { createSubscriptions } from './subscriptions.ts';

// The payment account check the admin's status page runs (billing's public face for it).
export { checkStripeAccount } from './providers/stripe.ts';

export function createBillingService(deps: {
  db: Db;
  config: Config;
  provider: CheckoutProvider;
  log: Logger;
}) {
  const context = { db: deps.db, provider: deps.provider, log: deps.log };
  const fulfillment = createFulfillment(context);
  const settlement = createDuplicateSettlement(context);
  return {
    ...fulfillment,
    ...settlement,
    ...createCheckouts(context, { ...fulfillment, ...settlement }),
    ...createSubscriptions(context, fulfillment),
    ...createRefunds(context),
    ...createDisputes(context),
    /** Issue 37, item 1: the admin's promotion codes and the pricing page's check of one. */
    promotions: { admin: createPromotionAdmin(context), checks: createPromotionChecks(context) },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
