/**
 * HTTP for the operator: admin sign-in/out and the /api/admin/* calls of the dashboard. Every
 * /api/admin route needs an admin session except `status`, which is password-checked instead.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TSchema } from 'typebox';
import type { Config } from '../../config.ts';
import { currentUser } from '../../core/auth.ts';
import { ErrorResponse, MessageResponse } from '../../contracts/common.ts';
import {
  AdjustCreditsBody,
  AdjustCreditsResponse,
  AdminLoginBody,
  AdminLoginResponse,
  AdminMeResponse,
  AdminStatusResponse,
  AdminTestResponse,
  BlogAccessBody,
  BlogAccessResponse,
  IdParams,
  OverviewQuery,
  OverviewResponse,
  RefundResponse,
  StatusQuery,
  UserDetailResponse,
} from '../../contracts/admin.ts';
import {
  ActionsResponse,
  PageQuery,
  PaymentsResponse,
  TasksQuery,
  TasksResponse,
  UsersQuery,
  UsersResponse,
  UserTransactionsResponse,
  WebhooksResponse,
} from '../../contracts/admin-lists.ts';
import { DailyStatsQuery, DailyStatsResponse } from '../../contracts/admin-stats.ts';
import { adminName } from './identity.ts';
import type { Operations } from './operations.ts';
import type { AdminService } from './service.ts';
import { answerText } from '../../core/api-messages.ts';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  429: ErrorResponse,
};

export async function adminRoutes(
  fastify: FastifyInstance,
  opts: { admin: AdminService; operations: Operations; config: Config; authRateLimit: number },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { admin, operations, config } = opts;
  const rateLimit = { max: opts.authRateLimit, timeWindow: '1 minute' };
  const guarded = { config: { access: 'admin' as const } };
  const security = [{ bearer: [] }];
  const tags = ['admin'];
  const actor = (request: Parameters<typeof currentUser>[0]) => adminName(currentUser(request));
  const ok = <T>(data: T) => ({ success: true as const, data });
  /** The options of a plain paged list (`limit`, `offset` or `cursor`) answered with `response`. */
  const pageOf = <R extends TSchema>(summary: string, response: R) => ({
    ...guarded,
    schema: {
      tags,
      security,
      summary,
      querystring: PageQuery,
      response: { 200: response, ...errors },
    },
  });

  if (config.isProduction && config.admin?.fromPlainPassword) {
    fastify.log.warn(
      'ADMIN_PASSWORD is set in plain text; prefer ADMIN_PASSWORD_HASH (npm run admin -- hash-password).',
    );
  }

  app.post(
    '/api/auth/admin-login',
    {
      config: { access: 'public', rateLimit },
      schema: {
        tags,
        summary: 'Administrator sign-in (ADMIN_USERNAME / ADMIN_PASSWORD_HASH); 12-hour session',
        body: AdminLoginBody,
        response: { 200: AdminLoginResponse, ...errors },
      },
    },
    async (request) => ok(await admin.signIn({ ...request.body, ip: request.ip }, request.log)),
  );

  app.post(
    '/api/auth/admin-logout',
    {
      ...guarded,
      schema: {
        tags,
        security,
        summary: 'End the admin session',
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => {
      await admin.signOut(request.session!.id);
      return { success: true, message: answerText('admin.signed_out') };
    },
  );

  app.get(
    '/api/admin/me',
    {
      ...guarded,
      schema: {
        tags,
        security,
        summary: 'The signed-in administrator',
        response: { 200: AdminMeResponse, ...errors },
      },
    },
    async (request) => ok({ username: actor(request) }),
  );

  app.get(
    '/api/admin/status',
    {
      config: { access: 'admin-password', rateLimit },
      schema: {
        tags,
        summary:
          'Operational status; needs ?password= (ADMIN_STATUS_PASSWORD or the admin password)',
        querystring: StatusQuery,
        response: { 200: AdminStatusResponse, ...errors },
      },
    },
    async (request) => {
      await admin.checkStatusPassword(request.query.password, request.ip);
      return ok(await operations.status());
    },
  );

  app.get(
    '/api/admin/test',
    {
      ...guarded,
      schema: {
        tags,
        security,
        summary: 'Exercise each subsystem (database, media store, providers, mail) and report each',
        response: { 200: AdminTestResponse, ...errors },
      },
    },
    async () => ok(await operations.selfTest()),
  );

  app.get(
    '/api/admin/overview',
    {
      ...guarded,
      schema: {
        tags,
        security,
        summary: 'Counts (cached 30 s; fresh=true counts now) and the site build status',
        querystring: OverviewQuery,
        response: { 200: OverviewResponse, ...errors },
      },
    },
    async (request) => {
      const [counts, build, videoProviders] = await Promise.all([
        admin.overviewCounts(request.query.fresh),
        operations.build(),
        operations.videoProviders(request.query.fresh),
      ]);
      return ok({ ...counts, build, videoProviders });
    },
  );

  app.get(
    '/api/admin/stats/daily',
    {
      ...guarded,
      schema: {
        tags,
        security,
        summary:
          'Per UTC day (default the last 30, at most 90): credits sold, videos generated, failure rate, p50/p95 generation time',
        querystring: DailyStatsQuery,
        response: { 200: DailyStatsResponse, ...errors },
      },
    },
    async (request) => ok(await admin.dailyStats(request.query.days, request.query.fresh)),
  );

  app.get(
    '/api/admin/users',
    {
      ...guarded,
      schema: {
        tags,
        security,
        summary:
          'Customers, newest first; q (3 characters at least) filters by a part of the email; offset for shallow pages, cursor for the next',
        querystring: UsersQuery,
        response: { 200: UsersResponse, ...errors },
      },
    },
    async (request) => {
      const { q, ...page } = request.query;
      return ok(await admin.users(q ?? '', page));
    },
  );

  app.get(
    '/api/admin/users/:id',
    {
      ...guarded,
      schema: {
        tags,
        security,
        summary: 'One customer with subscription, latest 20 ledger rows and latest 20 tasks',
        params: IdParams,
        response: { 200: UserDetailResponse, ...errors },
      },
    },
    async (request) => ok(await admin.userDetail(request.params.id)),
  );

  app.get(
    '/api/admin/users/:id/transactions',
    {
      ...guarded,
      schema: {
        tags,
        security,
        summary: "A customer's credit ledger, newest first",
        params: IdParams,
        querystring: PageQuery,
        response: { 200: UserTransactionsResponse, ...errors },
      },
    },
    async (request) => ok(await admin.transactions(request.params.id, request.query)),
  );

  app.get(
    '/api/admin/tasks',
    {
      ...guarded,
      schema: {
        tags,
        security,
        summary: 'Video tasks, newest first, optionally of one status',
        querystring: TasksQuery,
        response: { 200: TasksResponse, ...errors },
      },
    },
    async (request) => {
      const { status, ...page } = request.query;
      return ok(await admin.tasks(status, page));
    },
  );

  app.get(
    '/api/admin/payments',
    pageOf('Checkouts (plans and packs), newest first', PaymentsResponse),
    async (request) => ok(await admin.payments(request.query)),
  );

  app.get(
    '/api/admin/webhooks',
    pageOf('Received provider events, newest first (never their payloads)', WebhooksResponse),
    async (request) => ok(await admin.webhooks(request.query)),
  );

  app.get(
    '/api/admin/actions',
    pageOf('The audit trail of admin changes, newest first', ActionsResponse),
    async (request) => ok(await admin.actions(request.query)),
  );

  app.post(
    '/api/admin/users/:id/credits',
    {
      ...guarded,
      schema: {
        tags,
        security,
        summary: 'Give or take credits with a reason (ledger row + audit row, one transaction)',
        params: IdParams,
        body: AdjustCreditsBody,
        response: { 200: AdjustCreditsResponse, ...errors, 409: ErrorResponse },
      },
    },
    async (request) =>
      ok(await admin.adjustCredits(actor(request), { userId: request.params.id, ...request.body })),
  );

  app.post(
    '/api/admin/users/:id/blog-access',
    {
      ...guarded,
      schema: {
        tags,
        security,
        summary: 'Grant or revoke the blog-management right (audited)',
        params: IdParams,
        body: BlogAccessBody,
        response: { 200: BlogAccessResponse, ...errors },
      },
    },
    async (request) =>
      ok(
        await admin.setBlogAccess(actor(request), {
          userId: request.params.id,
          canManageBlog: request.body.canManageBlog,
        }),
      ),
  );

  app.post(
    '/api/admin/tasks/:id/refund',
    {
      ...guarded,
      schema: {
        tags,
        security,
        summary: 'Refund a failed task that was not refunded (once; audited)',
        params: IdParams,
        response: { 200: RefundResponse, ...errors, 409: ErrorResponse },
      },
    },
    async (request) => ok(await admin.refundTask(actor(request), request.params.id)),
  );
}
