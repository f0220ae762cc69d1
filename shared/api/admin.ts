/**
 * The admin API's shapes the /admin dashboard reads and sends (issue 7; spec 1 "admin login and
 * status", 6 Roles, 7 admin calls). The texts, codes and limits are in shared/admin.ts; the
 * schemas in server/contracts/admin.ts.
 */
import type { VideoOptionsData } from './video.ts';
import type { BillingCycle } from '../billing.ts';
import type { Ok } from './common.ts';
import type { CreditTransaction } from './credits.ts';
import type { TaskStatus } from './video.ts';

// ─── Sign-in ───────────────────────────────────────────────────────────────

export type AdminIdentity = {
  username: string;
};

export type AdminLoginResponse = Ok<{
  token: string;
  admin: AdminIdentity;
  /** ISO time the admin session ends (12 hours after sign-in). */
  expiresAt: string;
}>;

export type AdminMeResponse = Ok<AdminIdentity>;

// ─── Rows as the admin API shows them ──────────────────────────────────────

export type AdminUser = {
  id: string;
  email: string;
  name: string | null;
  avatar_url: string | null;
  provider: string;
  credits: number;
  can_manage_blog: boolean;
  created_at: string;
};

/** A ledger row: the admin sees the same shape as its owner (spec 3 "Credit balance response"). */
export type AdminTransaction = CreditTransaction;

export type AdminTaskStatus = TaskStatus;

/** One submit of a task to a provider route entry, oldest first. */
export type AdminRouteAttempt = {
  provider: string;
  model: string;
  /** ISO time of the submit. */
  at: string;
  /** accepted, rate_limited, unavailable, rejected, content_policy or in_doubt. */
  outcome: string;
  /** The provider's HTTP status, when it answered. */
  status: number | null;
};

export type AdminTask = {
  id: string;
  user_id: string;
  user_email: string;
  mode: 'text' | 'image';
  prompt: string;
  status: AdminTaskStatus;
  credits_cost: number;
  /** The task's credits were given back (a failed task's once-only refund). */
  refunded: boolean;
  error: string | null;
  created_at: string;
  completed_at: string | null;
  // The per-task provider record (issue 17), for the operator only: the customer's status
  // answer carries none of it, least of all the provider's own error text.
  /** The provider that took the job; until one accepts, the first of the task's route. */
  provider: string;
  /** The provider's model that took the job; null until a submit is accepted. */
  provider_model: string | null;
  /** The provider's own id for the job (what its dashboard and webhooks name). */
  provider_request_id: string | null;
  /** Submits tried (route_attempts has one entry for each). */
  attempts: number;
  /** When a provider accepted the job. */
  submitted_at: string | null;
  /** When the provider reported the job finished, either way. */
  provider_finished_at: string | null;
  /** What the provider reported the job cost, in US dollars. */
  provider_cost_usd: number | null;
  /** The creative options (issue 35); the spec's clip when none was chosen. */
  options: VideoOptionsData;
  /** The video this one extends, or null. */
  source_task_id: string | null;
  /** Length asked for: 8 s, or the source's + 7 for an extension. */
  duration_seconds: number;
  /** The provider's raw error text (admin only, never shown to customers). */
  provider_error: string | null;
  /** Why the task failed, as the worker classed it (e.g. content_policy, timeout). */
  failure_kind: string | null;
  route_attempts: AdminRouteAttempt[];
};

export type AdminSubscription = {
  id: string;
  provider: string;
  plan_id: string;
  billing_cycle: BillingCycle;
  status: string;
  current_period_end: string;
  cancel_at_period_end: boolean;
};

export type AdminPayment = {
  id: string;
  user_id: string;
  user_email: string;
  kind: 'plan' | 'pack';
  item_id: string;
  amount_cents: number;
  currency: string;
  status: string;
  provider: string;
  created_at: string;
};

/** A provider event as the admin sees it: never its payload. */
export type AdminWebhookEvent = {
  id: string;
  type: string;
  received_at: string;
  processed: boolean;
};

export type AdminAction = {
  id: string;
  /** Admin username, or `cli:<os user>` for the admin CLI. */
  admin: string;
  action: string;
  target_user_id: string | null;
  target_id: string | null;
  details: Record<string, unknown>;
  created_at: string;
};

export type SiteBuildState = 'idle' | 'queued' | 'building' | 'failed';

export type AdminSiteBuild = {
  state: SiteBuildState;
  liveRelease: string | null;
  builtAt: string | null;
  lastError: string | null;
};

export type TaskCounts = {
  pending: number;
  processing: number;
  completed: number;
  failed: number;
};

// ─── Responses ─────────────────────────────────────────────────────────────

/** One video provider in the overview (issue 17): routes, breaker, last 24 hours. */
export type AdminVideoProvider = {
  provider: string;
  /** Where it sits in the routes, e.g. `text #1: fal-ai/veo3.1`. */
  routes: string[];
  /** Set while the breaker is open (the provider is skipped). */
  breakerOpenUntil: string | null;
  /** Set while it asked us to wait (429). */
  rateLimitedUntil: string | null;
  consecutiveFailures: number;
  /** The provider's own text (admin only). */
  lastError: string | null;
  lastErrorAt: string | null;
  tasks24h: number;
  succeeded24h: number;
  failed24h: number;
  /** Succeeded ÷ finished, or null before any finished. */
  successRate: number | null;
  /** Seconds from the request to a playable video, succeeded tasks only. */
  p50Seconds: number | null;
  p95Seconds: number | null;
  /**
   * Issue 37, item 5: each route entry whose default video costs more than its credits bring at
   * the cheapest credit price, e.g. `text #1: fal-ai/veo3.1 loses $2.80 per video at Pro+ yearly prices`.
   */
  losses: string[];
};

export type OverviewResponse = Ok<{
  users: number;
  tasks: TaskCounts;
  payments: {
    paid: number;
    /** Revenue of paid checkouts in cents, one entry per currency (e.g. `{ usd: 12900 }`). */
    revenueCents: Record<string, number>;
  };
  webhooksLast24h: number;
  /** Customers' webhook deliveries (issue 36) in the last 24 hours: attempts by outcome. */
  customerWebhooks24h: {
    sent: number;
    failed: number;
    retried: number;
    endpointsDisabled: number;
  };
  /** When the counts above were taken: they are cached for 30 s (`fresh=true` counts now). */
  countedAt: string;
  build: AdminSiteBuild;
  videoProviders: AdminVideoProvider[];
}>;

export type UserDetailResponse = Ok<{
  user: AdminUser;
  subscription: AdminSubscription | null;
  transactions: AdminTransaction[];
  tasks: AdminTask[];
}>;

// ─── Mutations ─────────────────────────────────────────────────────────────

export type AdjustCreditsBody = {
  /** Non-zero; negative takes credits away (never below zero). */
  amount: number;
  reason: string;
  /**
   * Optional: the same key from the same admin for the same user applies once (a replay
   * answers the first result; another amount is refused with 409).
   */
  idempotencyKey?: string;
};

export type AdjustCreditsResponse = Ok<{ user: AdminUser; transaction: AdminTransaction }>;

export type BlogAccessResponse = Ok<{ user: AdminUser }>;

export type RefundResponse = Ok<{ task: AdminTask; transaction: AdminTransaction }>;

// ─── Operations ────────────────────────────────────────────────────────────

export type SubsystemCheck = {
  name: string;
  ok: boolean;
  detail: string;
  ms: number;
};

/** `GET /api/admin/test`: one entry per subsystem; `ok` is true only when all are. */
export type AdminTestResponse = Ok<{ ok: boolean; checks: SubsystemCheck[] }>;
