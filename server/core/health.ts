/** GET /api/health: liveness, database reachability, version and uptime. */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HealthResponse } from '../contracts/common.ts';
import type { Database } from './db.ts';

export const healthPlugin = fp(
  async (
    app: FastifyInstance,
    opts: { database: Pick<Database, 'ping'>; version: string; startedAt: number },
  ) => {
    app.get(
      '/api/health',
      {
        config: { access: 'public' },
        schema: {
          tags: ['health'],
          summary: 'Liveness and database reachability',
          response: { 200: HealthResponse, 503: HealthResponse },
        },
      },
      async (_request, reply) => {
        const up = await opts.database.ping();
        return reply.status(up ? 200 : 503).send({
          success: up,
          status: up ? 'ok' : 'degraded',
          database: up ? 'up' : 'down',
          version: opts.version,
          uptimeSeconds: Math.round((Date.now() - opts.startedAt) / 1000),
        });
      },
    );
  },
  { name: 'health', dependencies: ['access'] },
);
