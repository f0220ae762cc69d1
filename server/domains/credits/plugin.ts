/** The credits domain in the app: the ledger's routes, and the service as `app.credits`. */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { SessionAndUser } from '../../core/auth.ts';
import type { Db } from '../../core/db.ts';
import type { UserCache } from '../../core/user-cache.ts';
import { creditsRoutes } from './routes.ts';
import { createCreditsService, type CreditsService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    credits: CreditsService;
  }
}

export const creditsPlugin = fp(
  async (app: FastifyInstance, opts: { db: Db; userCache: UserCache<SessionAndUser> }) => {
    const credits = createCreditsService(opts.db, opts.userCache);
    app.decorate('credits', credits);
    await app.register(creditsRoutes, { credits });
  },
  { name: 'credits', dependencies: ['database', 'access', 'auth'] },
);
