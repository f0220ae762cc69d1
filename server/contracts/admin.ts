/**
 * Admin sign-in and the admin API (issue 7; spec 1 "admin login and status", 6 Roles, 7 admin calls).
 * The server validates requests and answers with these; the /admin island imports the types from
 * shared/api/admin.ts, and the texts, codes and limits both use are in shared/admin.ts. Every `/api/admin/*` route except
 * `status` needs an admin session (`Authorization: Bearer <admin token>`); the dashboard keeps that
 * token in `sessionStorage['adminToken']`, apart from the user's `authToken`.
 */
import { VideoOptionsData } from './video.ts';
import { Type, type Static } from 'typebox';
import { ADJUST_REASON_MAX, ADJUST_REASON_MIN, CREDIT_ADJUST_LIMIT } from '../../shared/admin.ts';
import { BILLING_CYCLES } from '../../shared/billing.ts';
import type * as api from '../../shared/api/admin.ts';
import { LiteralUnion, Nullable, Ok, schemaFor } from './common.ts';
import { CreditTransaction } from './credits.ts';
import { TaskStatus } from './video.ts';

// ─── Sign-in ───────────────────────────────────────────────────────────────

export const AdminLoginBody = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 200 }),
    password: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
);
export type AdminLoginBody = Static<typeof AdminLoginBody>;

const AdminIdentity = schemaFor<api.AdminIdentity>()(Type.Object({ username: Type.String() }));
type AdminIdentity = api.AdminIdentity;

export const AdminLoginResponse = schemaFor<api.AdminLoginResponse>()(
  Ok(
    Type.Object({
      token: Type.String(),
      admin: AdminIdentity,
      /** ISO time the admin session ends (12 hours after sign-in). */
      expiresAt: Type.String(),
    }),
  ),
);
export type AdminLoginResponse = api.AdminLoginResponse;

export const AdminMeResponse = schemaFor<api.AdminMeResponse>()(Ok(AdminIdentity));
export type AdminMeResponse = api.AdminMeResponse;

// ─── Rows as the admin API shows them ──────────────────────────────────────

export const AdminUser = schemaFor<api.AdminUser>()(
  Type.Object({
    id: Type.String(),
    email: Type.String(),
    name: Nullable(Type.String()),
    avatar_url: Nullable(Type.String()),
    provider: Type.String(),
    credits: Type.Integer(),
    can_manage_blog: Type.Boolean(),
    created_at: Type.String(),
  }),
);
export type AdminUser = api.AdminUser;

/** A ledger row: the admin sees the same shape as its owner (spec 3 "Credit balance response"). */
export const AdminTransaction = schemaFor<api.AdminTransaction>()(CreditTransaction);
export type AdminTransaction = api.AdminTransaction;

export const AdminTaskStatus = schemaFor<api.AdminTaskStatus>()(TaskStatus);
export type AdminTaskStatus = api.AdminTaskStatus;

/** One submit of a task to a provider route entry, oldest first. */
export const AdminRouteAttempt = schemaFor<api.AdminRouteAttempt>()(
  Type.Object({
    provider: Type.String(),
    model: Type.String(),
    /** ISO time of the submit. */
    at: Type.String(),
    /** accepted, rate_limited, unavailable, rejected, content_policy or in_doubt. */
    outcome: Type.String(),
    /** The provider's HTTP status, when it answered. */
    status: Nullable(Type.Integer()),
  }),
);
export type AdminRouteAttempt = api.AdminRouteAttempt;

export const AdminTask = schemaFor<api.AdminTask>()(
  Type.Object({
    id: Type.String(),
    user_id: Type.String(),
    user_email: Type.String(),
    mode: Type.Union([Type.Literal('text'), Type.Literal('image')]),
    prompt: Type.String(),
    status: AdminTaskStatus,
    credits_cost: Type.Integer(),
    /** The task's credits were given back (a failed task's once-only refund). */
    refunded: Type.Boolean(),
    error: Nullable(Type.String()),
    created_at: Type.String(),
    completed_at: Nullable(Type.String()),
    // The per-task provider record (issue 17), for the operator only: the customer's status
    // answer carries none of it, least of all the provider's own error text.
    /** The provider that took the job; until one accepts, the first of the task's route. */
    provider: Type.String(),
    /** The provider's model that took the job; null until a submit is accepted. */
    provider_model: Nullable(Type.String()),
    /** The provider's own id for the job (what its dashboard and webhooks name). */
    provider_request_id: Nullable(Type.String()),
    /** Submits tried (route_attempts has one entry for each). */
    attempts: Type.Integer(),
    /** When a provider accepted the job. */
    submitted_at: Nullable(Type.String()),
    /** When the provider reported the job finished, either way. */
    provider_finished_at: Nullable(Type.String()),
    /** What the provider reported the job cost, in US dollars. */
    provider_cost_usd: Nullable(Type.Number()),
    options: VideoOptionsData,
    source_task_id: Nullable(Type.String()),
    duration_seconds: Type.Integer(),
    /** The provider's raw error text (admin only, never shown to customers). */
    provider_error: Nullable(Type.String()),
    /** Why the task failed, as the worker classed it (e.g. content_policy, timeout). */
    failure_kind: Nullable(Type.String()),
    route_attempts: Type.Array(AdminRouteAttempt),
  }),
);
export type AdminTask = api.AdminTask;

export const AdminSubscription = schemaFor<api.AdminSubscription>()(
  Type.Object({
    id: Type.String(),
    provider: Type.String(),
    plan_id: Type.String(),
    billing_cycle: LiteralUnion(BILLING_CYCLES),
    status: Type.String(),
    current_period_end: Type.String(),
    cancel_at_period_end: Type.Boolean(),
  }),
);
export type AdminSubscription = api.AdminSubscription;

export const AdminPayment = schemaFor<api.AdminPayment>()(
  Type.Object({
    id: Type.String(),
    user_id: Type.String(),
    user_email: Type.String(),
    kind: Type.Union([Type.Literal('plan'), Type.Literal('pack')]),
    item_id: Type.String(),
    amount_cents: Type.Integer(),
    currency: Type.String(),
    status: Type.String(),
    provider: Type.String(),
    created_at: Type.String(),
  }),
);
export type AdminPayment = api.AdminPayment;

/** A provider event as the admin sees it: never its payload. */
export const AdminWebhookEvent = schemaFor<api.AdminWebhookEvent>()(
  Type.Object({
    id: Type.String(),
    type: Type.String(),
    received_at: Type.String(),
    processed: Type.Boolean(),
  }),
);
export type AdminWebhookEvent = api.AdminWebhookEvent;

export const AdminAction = schemaFor<api.AdminAction>()(
  Type.Object({
    id: Type.String(),
    /** Admin username, or `cli:<os user>` for the admin CLI. */
    admin: Type.String(),
    action: Type.String(),
    target_user_id: Nullable(Type.String()),
    target_id: Nullable(Type.String()),
    details: Type.Record(Type.String(), Type.Unknown()),
    created_at: Type.String(),
  }),
);
export type AdminAction = api.AdminAction;

const SiteBuildState = schemaFor<api.SiteBuildState>()(
  Type.Union([
    Type.Literal('idle'),
    Type.Literal('queued'),
    Type.Literal('building'),
    Type.Literal('failed'),
  ]),
);
type SiteBuildState = api.SiteBuildState;

export const AdminSiteBuild = schemaFor<api.AdminSiteBuild>()(
  Type.Object({
    state: SiteBuildState,
    liveRelease: Nullable(Type.String()),
    builtAt: Nullable(Type.String()),
    lastError: Nullable(Type.String()),
  }),
);
export type AdminSiteBuild = api.AdminSiteBuild;

export const TaskCounts = schemaFor<api.TaskCounts>()(
  Type.Object({
    pending: Type.Integer(),
    processing: Type.Integer(),
    completed: Type.Integer(),
    failed: Type.Integer(),
  }),
);
export type TaskCounts = api.TaskCounts;

// ─── Queries and params (the lists' are in admin-lists.ts) ─────────────────

export const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
export type IdParams = Static<typeof IdParams>;

export const StatusQuery = Type.Object({
  password: Type.Optional(Type.String({ maxLength: 200 })),
});

export const OverviewQuery = Type.Object(
  {
    fresh: Type.Optional(
      Type.Boolean({ description: 'true: count now instead of the counts cached for 30 s.' }),
    ),
  },
  { additionalProperties: false },
);
export type OverviewQuery = Static<typeof OverviewQuery>;

// ─── Responses ─────────────────────────────────────────────────────────────

/** One video provider in the overview (issue 17): routes, breaker, last 24 hours. */
const AdminVideoProvider = schemaFor<api.AdminVideoProvider>()(
  Type.Object({
    provider: Type.String(),
    /** Where it sits in the routes, e.g. `text #1: fal-ai/veo3.1`. */
    routes: Type.Array(Type.String()),
    /** Set while the breaker is open (the provider is skipped). */
    breakerOpenUntil: Type.Union([Type.String(), Type.Null()]),
    /** Set while it asked us to wait (429). */
    rateLimitedUntil: Type.Union([Type.String(), Type.Null()]),
    consecutiveFailures: Type.Integer(),
    /** The provider's own text (admin only). */
    lastError: Type.Union([Type.String(), Type.Null()]),
    lastErrorAt: Type.Union([Type.String(), Type.Null()]),
    tasks24h: Type.Integer(),
    succeeded24h: Type.Integer(),
    failed24h: Type.Integer(),
    /** Succeeded ÷ finished, or null before any finished. */
    successRate: Type.Union([Type.Number(), Type.Null()]),
    /** Seconds from the request to a playable video, succeeded tasks only. */
    p50Seconds: Type.Union([Type.Number(), Type.Null()]),
    p95Seconds: Type.Union([Type.Number(), Type.Null()]),
    /** Route entries whose default video loses money at the cheapest credit price (issue 37). */
    losses: Type.Array(Type.String()),
  }),
);
type AdminVideoProvider = api.AdminVideoProvider;

export const OverviewResponse = schemaFor<api.OverviewResponse>()(
  Ok(
    Type.Object({
      users: Type.Integer(),
      tasks: TaskCounts,
      payments: Type.Object({
        paid: Type.Integer(),
        /** Revenue of paid checkouts in cents, one entry per currency (e.g. `{ usd: 12900 }`). */
        revenueCents: Type.Record(Type.String(), Type.Integer()),
      }),
      webhooksLast24h: Type.Integer(),
      /** Customers' webhook deliveries (issue 36) in the last 24 hours: attempts by outcome. */
      customerWebhooks24h: Type.Object({
        sent: Type.Integer(),
        failed: Type.Integer(),
        retried: Type.Integer(),
        endpointsDisabled: Type.Integer(),
      }),
      /** When the counts above were taken: they are cached for 30 s (`fresh=true` counts now). */
      countedAt: Type.String(),
      build: AdminSiteBuild,
      videoProviders: Type.Array(AdminVideoProvider),
    }),
  ),
);
export type OverviewResponse = api.OverviewResponse;

export const UserDetailResponse = schemaFor<api.UserDetailResponse>()(
  Ok(
    Type.Object({
      user: AdminUser,
      subscription: Nullable(AdminSubscription),
      transactions: Type.Array(AdminTransaction),
      tasks: Type.Array(AdminTask),
    }),
  ),
);
export type UserDetailResponse = api.UserDetailResponse;

// ─── Mutations ─────────────────────────────────────────────────────────────

export const AdjustCreditsBody = schemaFor<api.AdjustCreditsBody>()(
  Type.Object(
    {
      /** Non-zero; negative takes credits away (never below zero). */
      amount: Type.Integer({
        minimum: -CREDIT_ADJUST_LIMIT,
        maximum: CREDIT_ADJUST_LIMIT,
        not: { const: 0 },
      }),
      reason: Type.String({ minLength: ADJUST_REASON_MIN, maxLength: ADJUST_REASON_MAX }),
      /**
       * Optional: the same key from the same admin for the same user applies once (a replay
       * answers the first result; another amount is refused with 409).
       */
      idempotencyKey: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    },
    { additionalProperties: false },
  ),
);
export type AdjustCreditsBody = api.AdjustCreditsBody;

export const AdjustCreditsResponse = schemaFor<api.AdjustCreditsResponse>()(
  Ok(Type.Object({ user: AdminUser, transaction: AdminTransaction })),
);
export type AdjustCreditsResponse = api.AdjustCreditsResponse;

export const BlogAccessBody = Type.Object(
  { canManageBlog: Type.Boolean() },
  { additionalProperties: false },
);
export type BlogAccessBody = Static<typeof BlogAccessBody>;

export const BlogAccessResponse = schemaFor<api.BlogAccessResponse>()(
  Ok(Type.Object({ user: AdminUser })),
);
export type BlogAccessResponse = api.BlogAccessResponse;

export const RefundResponse = schemaFor<api.RefundResponse>()(
  Ok(Type.Object({ task: AdminTask, transaction: AdminTransaction })),
);
export type RefundResponse = api.RefundResponse;

// ─── Operations ────────────────────────────────────────────────────────────

/** `GET /api/admin/status?password=`: what an operator checks first. */
export const AdminStatusResponse = Ok(
  Type.Object({
    database: Type.Object({
      ok: Type.Boolean(),
      kind: Type.Union([Type.Literal('postgres'), Type.Literal('pglite')]),
      latencyMs: Type.Number(),
    }),
    queue: TaskCounts,
    build: AdminSiteBuild,
    version: Type.String(),
    uptimeSeconds: Type.Number(),
    /** inline: the server runs the video worker; off: a separate `npm run worker` does. */
    workerMode: Type.Union([Type.Literal('inline'), Type.Literal('off')]),
  }),
);
export type AdminStatusResponse = Static<typeof AdminStatusResponse>;

export const SubsystemCheck = schemaFor<api.SubsystemCheck>()(
  Type.Object({
    name: Type.String(),
    ok: Type.Boolean(),
    detail: Type.String(),
    ms: Type.Number(),
  }),
);
export type SubsystemCheck = api.SubsystemCheck;

/** `GET /api/admin/test`: one entry per subsystem; `ok` is true only when all are. */
export const AdminTestResponse = schemaFor<api.AdminTestResponse>()(
  Ok(Type.Object({ ok: Type.Boolean(), checks: Type.Array(SubsystemCheck) })),
);
export type AdminTestResponse = api.AdminTestResponse;
