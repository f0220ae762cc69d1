/** HTTP for the generic data API: /api/db/{table} (select, insert, update, delete) and /api/rpc/{name}. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ARTICLE_BODY_LIMIT } from '../../core/server.ts';
import { ErrorResponse } from '../../contracts/common.ts';
import {
  DataDeleteBody,
  DataInsertBody,
  DataRowsResponse,
  DataSelectQuery,
  DataTableParams,
  DataUpdateBody,
  RpcBody,
  RpcParams,
  RpcResponse,
} from '../../contracts/data-api.ts';
import { exposedTables } from './policies.ts';
import type { DataApiCaller, DataApiService } from './service.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

const callerOf = (request: FastifyRequest): DataApiCaller => ({
  user: request.user,
  isAdmin: !!request.user && !!request.session?.isAdmin,
});

export async function dataApiRoutes(fastify: FastifyInstance, opts: { dataApi: DataApiService }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { dataApi } = opts;
  const tags = ['data-api'];
  const tables = exposedTables().join(', ');
  const rules =
    `Tables: ${tables}. Each table's policy decides what your role (anonymous, user, editor, ` +
    'admin) may do, which columns you see or set and which rows you reach (your own, published, or all).';

  // Public on purpose: each table's policy (policies.ts) decides per role, column and row, so
  // every route here reads its caller (readsUser).
  app.get(
    '/api/db/:table',
    {
      config: { access: 'public', readsUser: true },
      schema: {
        tags,
        summary:
          'Read rows you may see (columns, where, orderBy, ascending, offset, limit, cursor)',
        description: rules,
        params: DataTableParams,
        querystring: DataSelectQuery,
        response: { 200: DataRowsResponse, ...errors },
      },
    },
    async (request) => {
      const { rows, ...paging } = await dataApi.select(
        callerOf(request),
        request.params.table,
        request.query,
      );
      return { success: true as const, data: rows, ...paging };
    },
  );

  app.post(
    '/api/db/:table',
    {
      config: { access: 'public', readsUser: true },
      // Rows of posts carry whole articles; callers without a session keep 64 KB.
      bodyLimit: ARTICLE_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Add a row: the body is the row itself, { column: value } (posts, for editors)',
        description: rules,
        params: DataTableParams,
        body: DataInsertBody,
        response: { 200: DataRowsResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await dataApi.insert(callerOf(request), request.params.table, request.body),
    }),
  );

  app.put(
    '/api/db/:table',
    {
      config: { access: 'public', readsUser: true },
      bodyLimit: ARTICLE_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Change the rows matching where: { data, where }',
        description: rules,
        params: DataTableParams,
        body: DataUpdateBody,
        response: { 200: DataRowsResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await dataApi.update(callerOf(request), request.params.table, request.body),
    }),
  );

  app.delete(
    '/api/db/:table',
    {
      config: { access: 'public', readsUser: true },
      schema: {
        tags,
        summary: 'Delete the rows matching where: { where }; answers the deleted rows',
        description: rules,
        params: DataTableParams,
        body: DataDeleteBody,
        response: { 200: DataRowsResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await dataApi.remove(callerOf(request), request.params.table, request.body),
    }),
  );

  app.post(
    '/api/rpc/:name',
    {
      // increment_post_views is open to anyone, like the blog's own view counter.
      config: {
        access: 'public',
        readsUser: true,
        rateLimit: { max: 120, timeWindow: '1 minute' },
      },
      // A function without arguments may be called with no body at all.
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags,
        summary: 'Call an allowlisted function with typed arguments',
        description:
          'user_credit_summary { user_id? } (signed in; user_id for administrators): balance, ' +
          'total_granted, total_spent, refunds, transaction_count, last_transaction_at. ' +
          'increment_post_views { slug } or { post_id } (anyone; published posts): view_count.',
        params: RpcParams,
        body: RpcBody,
        response: { 200: RpcResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await dataApi.rpc(callerOf(request), request.params.name, request.body),
    }),
  );
}
