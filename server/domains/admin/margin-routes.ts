/** HTTP for the admin overview's margin view (issue 37, item 5; margin-stats.ts). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ErrorResponse } from '../../contracts/common.ts';
import { MarginStatsQuery, MarginStatsResponse } from '../../contracts/admin-margin.ts';
import type { DbOrTx } from '../../core/db.ts';
import { createMarginStatsReader } from './margin-stats.ts';

export async function marginRoutes(
  fastify: FastifyInstance,
  opts: { db: DbOrTx; now?: (() => Date) | undefined },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const marginStats = createMarginStatsReader({ db: opts.db, now: opts.now ?? (() => new Date()) });
  app.get(
    '/api/admin/stats/margin',
    {
      config: { access: 'admin' as const },
      schema: {
        tags: ['admin'],
        security: [{ bearer: [] }],
        summary:
          'Per UTC day and per provider:model (default the last 30 days, at most 90): videos, revenue, provider cost, margin',
        querystring: MarginStatsQuery,
        response: {
          200: MarginStatsResponse,
          400: ErrorResponse,
          401: ErrorResponse,
          403: ErrorResponse,
          429: ErrorResponse,
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: await marginStats(request.query.days, request.query.fresh),
    }),
  );
}
