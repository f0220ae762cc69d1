/**
 * The data API in the app: /api/db and /api/rpc with per-table policies. Posts written through
 * it go through the blog service, so they are sanitized and published like any other.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../../core/db.ts';
import type { BlogService } from '../blog/service.ts';
import { dataApiRoutes } from './routes.ts';
import { createDataApiService } from './service.ts';

export const dataApiPlugin = fp(
  async (app: FastifyInstance, opts: { db: Db; blog: BlogService }) => {
    await app.register(dataApiRoutes, {
      dataApi: createDataApiService({ db: opts.db, blog: opts.blog }),
    });
  },
  { name: 'data-api', dependencies: ['database', 'access', 'auth', 'blog'] },
);
