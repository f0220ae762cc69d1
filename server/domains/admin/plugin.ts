/**
 * The admin domain in the app: the operator's sign-in, dashboard and actions (through the
 * accounts and credits services), and the status and self-test of every subsystem.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import type { Database } from '../../core/db.ts';
import type { MediaStore } from '../../core/media-store/types.ts';
import type { AccountsService } from '../accounts/service.ts';
import type { CreditsService } from '../credits/service.ts';
import type { Publisher } from '../site-build/plugin.ts';
import { createOperations } from './operations.ts';
import { adminRoutes } from './routes.ts';
import { marginRoutes } from './margin-routes.ts';
import { createAdminService } from './service.ts';

export const adminPlugin = fp(
  async (
    app: FastifyInstance,
    opts: {
      config: Config;
      database: Database;
      accounts: AccountsService;
      credits: CreditsService;
      publisher: Publisher;
      /** The media store's folder (the self-test writes a file there). */
      mediaStore: MediaStore;
      /** When the app started (the status page's uptime). */
      startedAt: number;
      /** Admin sign-in routes allowed per minute per client address. */
      authRateLimit: number;
      /** The admin sign-in's clock (tests move it past a lockout). */
      now?: (() => Date) | undefined;
    },
  ) => {
    const { config } = opts;
    const admin = createAdminService({
      db: opts.database.db,
      config,
      credits: opts.credits,
      accounts: opts.accounts,
      ...(opts.now ? { now: opts.now } : {}),
    });
    const operations = createOperations({
      config,
      database: opts.database,
      publisher: opts.publisher,
      mediaStore: opts.mediaStore,
      startedAt: opts.startedAt,
    });
    await app.register(marginRoutes, { db: opts.database.db, now: opts.now });
    await app.register(adminRoutes, {
      admin,
      operations,
      config,
      authRateLimit: opts.authRateLimit,
    });
  },
  {
    name: 'admin',
    dependencies: ['access', 'rate-limit', 'accounts', 'credits', 'video', 'site-build'],
  },
);
