/**
 * SQL for the admin API: the operator's records (a user, a task, a subscription), the overview's
 * counts and the audit trail's writes. The lists are in list-repository.ts, a user's ledger comes
 * from the credits service, the sign-in lockout's SQL is in lockout-repository.ts. Every function
 * takes `db | tx` first and returns rows already shaped as the admin contract's objects.
 */
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../core/db.ts';
import {
  DEFAULT_OPTIONS,
  toOptionsData,
  type VideoOptions,
} from '../../../shared/video-options.ts';
import { adminActions } from '../../db/schema.ts';
import type {
  AdminRouteAttempt,
  AdminSubscription,
  AdminTask,
  AdminTaskStatus,
  AdminUser,
  TaskCounts,
} from '../../contracts/admin.ts';

/** Both drivers return timestamps as Date; strings are accepted too, to be safe. */
export const iso = (value: Date | string): string => new Date(value).toISOString();
const isoOrNull = (value: Date | string | null): string | null => (value ? iso(value) : null);

async function count(db: DbOrTx, query: SQL): Promise<number> {
  const rows = await queryRows<{ n: number }>(db, query);
  return rows[0]?.n ?? 0;
}

// ─── Users ─────────────────────────────────────────────────────────────────

export interface UserSqlRow {
  id: string;
  email: string;
  name: string | null;
  avatar_url: string | null;
  picture: string | null;
  provider: string;
  credits: number;
  can_manage_blog: boolean;
  created_at: Date;
}

export const toAdminUser = (row: UserSqlRow): AdminUser => ({
  id: row.id,
  email: row.email,
  name: row.name,
  // Google accounts carry their photo in `picture`; the dashboard shows either.
  avatar_url: row.avatar_url ?? row.picture,
  provider: row.provider,
  credits: row.credits,
  can_manage_blog: row.can_manage_blog,
  created_at: iso(row.created_at),
});

export const USER_COLUMNS = sql`id, email, name, avatar_url, picture, provider, credits, can_manage_blog, created_at`;

/** A customer by id (admin rows answer null, as if they did not exist). */
export async function findUser(
  db: DbOrTx,
  id: string,
  opts: { lock?: boolean } = {},
): Promise<AdminUser | null> {
  const rows = await queryRows<UserSqlRow>(
    db,
    sql`select ${USER_COLUMNS} from users where id = ${id} and provider <> 'admin'
        ${opts.lock ? sql`for update` : sql``}`,
  );
  return rows[0] ? toAdminUser(rows[0]) : null;
}

export async function findUserByEmail(db: DbOrTx, email: string): Promise<AdminUser | null> {
  const rows = await queryRows<UserSqlRow>(
    db,
    sql`select ${USER_COLUMNS} from users
        where email = ${email.trim().toLowerCase()} and provider <> 'admin'`,
  );
  return rows[0] ? toAdminUser(rows[0]) : null;
}

export async function setCanManageBlog(
  db: DbOrTx,
  id: string,
  canManageBlog: boolean,
): Promise<AdminUser | null> {
  const rows = await queryRows<UserSqlRow>(
    db,
    sql`update users set can_manage_blog = ${canManageBlog}, updated_at = now()
        where id = ${id} and provider <> 'admin' returning ${USER_COLUMNS}`,
  );
  return rows[0] ? toAdminUser(rows[0]) : null;
}

export async function latestSubscription(
  db: DbOrTx,
  userId: string,
): Promise<AdminSubscription | null> {
  const rows = await queryRows<{
    id: string;
    provider: string;
    plan_id: string;
    billing_cycle: 'monthly' | 'yearly';
    status: string;
    current_period_end: Date;
    cancel_at_period_end: boolean;
  }>(
    db,
    sql`select id, provider, plan_id, billing_cycle, status, current_period_end, cancel_at_period_end
        from subscriptions where user_id = ${userId}
        order by (status in ('active', 'trialing', 'past_due')) desc, current_period_end desc
        limit 1`,
  );
  const row = rows[0];
  return row ? { ...row, current_period_end: iso(row.current_period_end) } : null;
}

// ─── Video tasks ───────────────────────────────────────────────────────────

export interface TaskSqlRow {
  id: string;
  user_id: string;
  user_email: string;
  mode: 'text' | 'image';
  prompt: string;
  status: AdminTaskStatus;
  credits_cost: number;
  refunded: boolean;
  error: string | null;
  created_at: Date;
  completed_at: Date | null;
  provider: string;
  provider_model: string | null;
  provider_request_id: string | null;
  attempts: number;
  submitted_at: Date | null;
  provider_finished_at: Date | null;
  provider_cost_usd: number | null;
  provider_error: string | null;
  failure_kind: string | null;
  route_attempts: unknown;
  options: VideoOptions | null;
  source_task_id: string | null;
  duration_seconds: number;
}

/**
 * The route attempts as the contract has them. The column is JSON the worker appends to; each
 * entry is rebuilt field by field (an absent status is null) so one odd entry cannot make the
 * strict response schema fail the whole list.
 */
function toRouteAttempts(value: unknown): AdminRouteAttempt[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((entry): entry is Record<string, unknown> => typeof entry === 'object' && !!entry)
    .map((entry) => ({
      provider: String(entry.provider ?? ''),
      model: String(entry.model ?? ''),
      at: String(entry.at ?? ''),
      outcome: String(entry.outcome ?? ''),
      status: Number.isInteger(entry.status) ? (entry.status as number) : null,
    }));
}

export const toAdminTask = ({
  sort_ts: _sortTs,
  ...row
}: TaskSqlRow & { sort_ts?: string }): AdminTask => ({
  ...row,
  created_at: iso(row.created_at),
  completed_at: isoOrNull(row.completed_at),
  submitted_at: isoOrNull(row.submitted_at),
  provider_finished_at: isoOrNull(row.provider_finished_at),
  route_attempts: toRouteAttempts(row.route_attempts),
  options: toOptionsData(row.options ?? DEFAULT_OPTIONS),
});

/**
 * What a task cost and whether it was refunded come from its ledger rows (`video_task:{id}` and
 * `refund:{id}`), the same rows the video domain writes. The provider's reported cost is
 * numeric(12,6), which both drivers answer as a string: float8 makes it the contract's number.
 */
export const TASK_COLUMNS = sql`
  t.id, t.user_id, u.email as user_email, t.mode, t.prompt, t.status,
         coalesce(-charge.amount, 0)::int as credits_cost,
         (refund.id is not null) as refunded,
         t.error_message as error, t.created_at, t.completed_at,
         t.provider, t.provider_model, t.provider_request_id, t.attempts, t.submitted_at,
         t.provider_finished_at, t.provider_cost_usd::float8 as provider_cost_usd,
         t.provider_error, t.failure_kind, t.route_attempts,
         t.options, t.source_task_id, t.duration_seconds`;
export const TASK_FROM = sql`
  from video_tasks t
  join users u on u.id = t.user_id
  left join credit_transactions charge
    on charge.source_type = 'video_task' and charge.source_id = t.id::text
  left join credit_transactions refund
    on refund.source_type = 'refund' and refund.source_id = t.id::text`;

export async function findTask(db: DbOrTx, id: string): Promise<AdminTask | null> {
  const rows = await queryRows<TaskSqlRow>(
    db,
    sql`select ${TASK_COLUMNS} ${TASK_FROM} where t.id = ${id}`,
  );
  return rows[0] ? toAdminTask(rows[0]) : null;
}

/** Locks a task row until the transaction ends (one refund decision at a time). */
export async function lockTask(
  db: DbOrTx,
  id: string,
): Promise<{ id: string; user_id: string; status: AdminTaskStatus } | null> {
  const rows = await queryRows<{ id: string; user_id: string; status: AdminTaskStatus }>(
    db,
    sql`select id, user_id, status from video_tasks where id = ${id} for update`,
  );
  return rows[0] ?? null;
}

/** A refunded task brought nothing (issue 37): its revenue goes back to 0 with the refund. */
export async function clearTaskRevenue(tx: DbOrTx, id: string): Promise<void> {
  await tx.execute(sql`update video_tasks set revenue_usd = 0 where id = ${id}`);
}

export async function taskCounts(db: DbOrTx): Promise<TaskCounts> {
  const rows = await queryRows<{ status: AdminTaskStatus; n: number }>(
    db,
    sql`select status, count(*)::int as n from video_tasks group by status`,
  );
  const counts: TaskCounts = { pending: 0, processing: 0, completed: 0, failed: 0 };
  for (const row of rows) counts[row.status] = row.n;
  return counts;
}

// ─── Payments and webhooks ─────────────────────────────────────────────────

export async function paymentTotals(db: DbOrTx) {
  const rows = await queryRows<{ currency: string; paid: number; cents: number }>(
    db,
    sql`select currency, count(*)::int as paid, coalesce(sum(amount_cents), 0)::int as cents
        from checkout_sessions where status = 'paid' group by currency`,
  );
  const revenueCents: Record<string, number> = {};
  let paid = 0;
  for (const row of rows) {
    revenueCents[row.currency] = row.cents;
    paid += row.paid;
  }
  return { paid, revenueCents };
}

export async function webhooksSince(db: DbOrTx, since: Date): Promise<number> {
  return count(
    db,
    sql`select count(*)::int as n from webhook_events where received_at > ${since.toISOString()}::timestamptz`,
  );
}

export async function customerCount(db: DbOrTx): Promise<number> {
  return count(db, sql`select count(*)::int as n from users where provider <> 'admin'`);
}

// ─── Audit trail ───────────────────────────────────────────────────────────

export async function insertAction(
  db: DbOrTx,
  action: {
    admin: string;
    action: string;
    targetUserId: string | null;
    targetId: string | null;
    details: Record<string, unknown>;
  },
): Promise<void> {
  await db.insert(adminActions).values({
    adminUsername: action.admin,
    action: action.action,
    targetUserId: action.targetUserId,
    targetId: action.targetId,
    details: action.details,
  });
}
