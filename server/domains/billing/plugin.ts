/**
 * The billing domain in the app: checkout through Stripe when it is configured (the local
 * checkout otherwise), Stripe's webhook, subscriptions, the hourly scheduled grants and the
 * sweep that settles duplicate subscriptions at the provider.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import type { Db } from '../../core/db.ts';
import { scheduleRepeating } from '../../core/scheduler.ts';
import type { AccountsService } from '../accounts/service.ts';
import { createLocalCheckoutProvider } from './providers/local-checkout.ts';
import { createStripeProvider, type StripeProvider } from './providers/stripe.ts';
import { createPortal } from './portal.ts';
import { portalRoutes } from './portal-routes.ts';
import { promotionRoutes } from './promotions/routes.ts';
import { receiptsPlugin } from './receipts/plugin.ts';
import { billingRoutes } from './routes.ts';
import { createBillingService, type BillingService } from './service.ts';
import { createStripeWebhookHandler } from './webhooks.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** For closing an account (privacy domain): its subscription is cancelled at the provider. */
    billing: BillingService;
  }
}

export const billingPlugin = fp(
  async (
    app: FastifyInstance,
    opts: {
      config: Config;
      db: Db;
      accounts: Pick<AccountsService, 'findUser'>;
      /** Default: the Stripe adapter when STRIPE_* is configured. */
      stripe?: StripeProvider | undefined;
      /** false: no hourly scheduled grants (tests run them by hand). Default true. */
      scheduler?: boolean | undefined;
    },
  ) => {
    const { config, db } = opts;
    const stripe =
      opts.stripe ?? (config.stripe ? await createStripeProvider(config.stripe) : null);
    const billing = createBillingService({
      db,
      config,
      provider: stripe ?? createLocalCheckoutProvider(),
      log: app.log,
    });
    app.decorate('billing', billing);
    await app.register(billingRoutes, {
      billing,
      config,
      findUser: opts.accounts.findUser,
      handleStripeWebhook: stripe
        ? createStripeWebhookHandler({ db, billing, stripe, log: app.log })
        : null,
    });
    // Issue 37, item 2: "Manage billing" (Stripe's customer portal, or the local billing page).
    await app.register(portalRoutes, {
      db,
      portal: createPortal({ db, publicSiteUrl: config.publicSiteUrl, stripe }),
    });
    await app.register(promotionRoutes, { promotions: billing.promotions }); // issue 37, item 1
    await app.register(receiptsPlugin, { config, db }); // issue 37, item 3: receipts by email
    // Yearly plans' monthly credits and local renewals, once an hour on one instance (and
    // idempotent besides, so a run that overlaps another grants nothing twice).
    if (opts.scheduler !== false) {
      scheduleRepeating(app, db, {
        name: 'billing.scheduled-grants',
        everyMs: 60 * 60 * 1000,
        run: () => billing.runScheduledGrants(),
        failure: 'scheduled grants failed',
      });
      // Duplicate subscriptions whose cancel or refund failed after their commit (duplicates.ts).
      scheduleRepeating(app, db, {
        name: 'billing.duplicate-subscription-sweep',
        everyMs: 5 * 60 * 1000,
        run: () => billing.settleDuplicateSubscriptions(),
        failure: 'duplicate subscription sweep failed',
      });
    }
  },
  { name: 'billing', dependencies: ['database', 'access', 'auth', 'accounts'] },
);
