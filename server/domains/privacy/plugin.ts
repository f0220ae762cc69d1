/**
 * The privacy domain in the app (issue 34, finding 10): a customer's data as a download
 * (GET /api/account/export) and closing the account (DELETE /api/account). It reaches billing
 * through `app.billing` (the subscription is cancelled at the provider) and video through its
 * service module (every video and upload leaves `app.mediaStore`).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../../core/db.ts';
import type { BillingService } from '../billing/service.ts';
import { privacyRoutes } from './routes.ts';
import { createPrivacyService } from './service.ts';

export const privacyPlugin = fp(
  async (
    app: FastifyInstance,
    opts: {
      db: Db;
      billing: Pick<BillingService, 'cancelSubscription'>;
      /** Closing attempts allowed per minute per client address (the sign-in routes' limit). */
      authRateLimit: number;
    },
  ) => {
    const privacy = createPrivacyService({
      db: opts.db,
      store: app.mediaStore,
      billing: opts.billing,
      log: app.log,
    });
    await app.register(privacyRoutes, { privacy, authRateLimit: opts.authRateLimit });
  },
  {
    name: 'privacy',
    dependencies: ['database', 'access', 'auth', 'rate-limit', 'media-store', 'billing', 'video'],
  },
);
