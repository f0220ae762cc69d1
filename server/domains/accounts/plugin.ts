/**
 * The accounts domain in the app: sign-in, sessions and password reset, and the hourly cleanup of
 * dead sessions and links. It gives every request its user (the auth plugin reads sessions through
 * this service) and offers the service to the domains that need it as `app.accounts`.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import { authPlugin, type SessionAndUser } from '../../core/auth.ts';
import type { Db } from '../../core/db.ts';
import { createMailQueue } from '../../core/mail-queue.ts';
import { createConfiguredMailer, type Mailer } from '../../core/mailer.ts';
import { scheduleRepeating } from '../../core/scheduler.ts';
import type { UserCache } from '../../core/user-cache.ts';
import { createGoogleIdentity } from './google-identity.ts';
import { accountsRoutes } from './routes.ts';
import { createAccountsService, type AccountsService, type GoogleVerifier } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    accounts: AccountsService;
    /** SMTP, or the outbox in DATA_DIR (AppDeps.mailer in tests). */
    mailer: Mailer;
  }
}

export const accountsPlugin = fp(
  async (
    app: FastifyInstance,
    opts: {
      config: Config;
      db: Db;
      userCache: UserCache<SessionAndUser>;
      /** Auth routes allowed per minute per client address. */
      authRateLimit: number;
      /** Default: Google's identity service as configured. */
      google?: GoogleVerifier | undefined;
      /** Default: SMTP, or the outbox in DATA_DIR. */
      mailer?: Mailer | undefined;
    },
  ) => {
    const { config } = opts;
    const mailQueue = createMailQueue(app.log);
    const mailer = opts.mailer ?? (await createConfiguredMailer(config));
    // Other domains mail through it too (the api domain: a webhook endpoint disabled).
    app.decorate('mailer', mailer);
    const accounts = createAccountsService({
      db: opts.db,
      config,
      google: opts.google ?? createGoogleIdentity(config.google),
      mailer,
      mailQueue,
      userCache: opts.userCache,
    });
    // Mail queued by answered requests goes out before the database closes.
    app.addHook('onClose', () => mailQueue.settled());
    await app.register(authPlugin, { authenticator: accounts.authenticator });
    app.decorate('accounts', accounts);
    await app.register(accountsRoutes, {
      accounts,
      config,
      authRateLimit: opts.authRateLimit,
    });
    // Sessions and links past their expiry (or revocation) would otherwise stay forever.
    scheduleRepeating(app, opts.db, {
      name: 'accounts.dead-credentials-cleanup',
      everyMs: 60 * 60 * 1000,
      run: async () => {
        const deleted = await accounts.deleteDeadCredentials();
        if (Object.values(deleted).some((n) => n > 0)) {
          app.log.info({ deleted }, 'dead sessions and links deleted');
        }
      },
      failure: 'deleting expired sessions and links failed',
    });
  },
  { name: 'accounts', dependencies: ['database', 'access', 'errors', 'rate-limit', 'api-spec'] },
);
