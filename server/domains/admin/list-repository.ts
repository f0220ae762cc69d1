/**
 * SQL of the admin lists (issue 19): users, tasks, payments, webhook events and the audit trail,
 * each newest first by (time, id) and paged by paging.ts. Every list's order is an index of
 * migration 0011 (or the status and user indexes for filtered tasks), so a page is an index
 * range scan; each `…ListSource` is exported so a test can EXPLAIN the very statement.
 */
import { sql, type SQL } from 'drizzle-orm';
import { cursorTimestampSql } from '../../core/cursor.ts';
import type { DbOrTx } from '../../core/db.ts';
import type {
  AdminAction,
  AdminPayment,
  AdminTaskStatus,
  AdminWebhookEvent,
} from '../../contracts/admin.ts';
import type { EmailSearchPlan } from './email-search.ts';
import { pageAs, readPage, type KeyedRow, type ListSource, type PageStart } from './paging.ts';
import {
  iso,
  TASK_COLUMNS,
  TASK_FROM,
  toAdminTask,
  toAdminUser,
  USER_COLUMNS,
  type TaskSqlRow,
  type UserSqlRow,
} from './repository.ts';

/** Escapes LIKE wildcards so a search for `a_b` finds `a_b`, not `axb`. */
const likeContaining = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Customers only: the rows behind admin sessions (provider 'admin') are never listed. `search`
 * (3 characters at least: the service checks) is matched anywhere in the email, as the search
 * plan says (email-search.ts): users_email_trgm_idx is asked for the plan's probe, the rarest
 * part of the text, and the whole text is checked on what it returns (`lower(email) like`, which
 * the index cannot take, so it never adds the common trigrams back). A broad search is a plain
 * ILIKE left to the planner; the list itself walks users_created_id_idx.
 */
export function userListSource(
  search: string,
  plan: EmailSearchPlan = { probe: search, broad: false },
): ListSource {
  const where = [sql`u.provider <> 'admin'`];
  if (search && plan.broad) where.push(sql`u.email ilike ${likeContaining(search)}`);
  if (search && !plan.broad) {
    where.push(sql`u.email ilike ${likeContaining(plan.probe)}`);
    if (plan.probe !== search) where.push(sql`lower(u.email) like ${likeContaining(search)}`);
  }
  // A narrow search reads its matches through the trigram index once (the materialized CTE
  // `matches`), then pages and counts them: left to itself the planner may walk
  // users_created_id_idx for the LIMIT instead and filter every user when few or none match.
  const matches =
    search && !plan.broad ? sql`select * from users u where ${sql.join(where, sql` and `)}` : null;
  return {
    ...(matches ? { matches } : {}),
    select: sql`select ${USER_COLUMNS}, ${cursorTimestampSql(sql`u.created_at`)} as sort_ts
                from ${matches ? sql`matches u` : sql`users u`}`,
    where,
    ts: sql`u.created_at`,
    id: sql`u.id`,
    countFrom: sql`users u`,
  };
}

export async function listUsers(
  db: DbOrTx,
  search: string,
  plan: EmailSearchPlan,
  start: PageStart,
) {
  const page = await readPage<UserSqlRow & KeyedRow>(db, userListSource(search, plan), start);
  return pageAs('users', page, toAdminUser);
}

/**
 * Tasks newest first, of one status or one user when asked. Unfiltered, the page walks
 * video_tasks_created_id_idx; by status, video_tasks_queue_idx (status, created_at); by user,
 * video_tasks_user_idx (user_id, created_at). Cost and refund come from unique-key lookups.
 */
export function taskListSource(filter: {
  status?: AdminTaskStatus | undefined;
  userId?: string | undefined;
}): ListSource {
  const where: SQL[] = [];
  if (filter.status) where.push(sql`t.status = ${filter.status}`);
  if (filter.userId) where.push(sql`t.user_id = ${filter.userId}`);
  return {
    select: sql`select ${TASK_COLUMNS}, ${cursorTimestampSql(sql`t.created_at`)} as sort_ts
                ${TASK_FROM}`,
    where,
    ts: sql`t.created_at`,
    id: sql`t.id`,
    countFrom: sql`video_tasks t`,
  };
}

export async function listTasks(
  db: DbOrTx,
  filter: { status?: AdminTaskStatus | undefined; userId?: string | undefined },
  start: PageStart,
) {
  const page = await readPage<TaskSqlRow & KeyedRow>(db, taskListSource(filter), start);
  return pageAs('tasks', page, toAdminTask);
}

interface PaymentSqlRow {
  id: string;
  user_id: string;
  user_email: string;
  kind: 'subscription' | 'credits';
  item_id: string;
  amount_cents: number;
  currency: string;
  status: string;
  provider: string;
  created_at: Date;
}

const toAdminPayment = (row: PaymentSqlRow): AdminPayment => ({
  id: row.id,
  user_id: row.user_id,
  user_email: row.user_email,
  kind: row.kind === 'subscription' ? 'plan' : 'pack',
  item_id: row.item_id,
  amount_cents: row.amount_cents,
  currency: row.currency,
  status: row.status,
  provider: row.provider,
  created_at: iso(row.created_at),
});

/** Checkouts newest first (checkout_sessions_created_id_idx; ids are the provider's text). */
export const paymentListSource = (): ListSource => ({
  select: sql`select c.id, c.user_id, u.email as user_email, c.kind, c.item_id,
                c.amount_cents, c.currency, c.status, c.provider, c.created_at,
                ${cursorTimestampSql(sql`c.created_at`)} as sort_ts
              from checkout_sessions c join users u on u.id = c.user_id`,
  where: [],
  ts: sql`c.created_at`,
  id: sql`c.id`,
  countFrom: sql`checkout_sessions c`,
});

export async function listPayments(db: DbOrTx, start: PageStart) {
  const page = await readPage<PaymentSqlRow & KeyedRow>(db, paymentListSource(), start);
  return pageAs('payments', page, toAdminPayment);
}

/**
 * Events without their payloads: those hold customer data the dashboard does not need. Newest
 * first by (received_at, id): webhook_events_received_id_idx.
 */
export const webhookListSource = (): ListSource => ({
  select: sql`select w.id, w.type, w.received_at, w.handled,
                ${cursorTimestampSql(sql`w.received_at`)} as sort_ts
              from webhook_events w`,
  where: [],
  ts: sql`w.received_at`,
  id: sql`w.id`,
  countFrom: sql`webhook_events w`,
});

export async function listWebhooks(db: DbOrTx, start: PageStart) {
  type Row = { id: string; type: string; received_at: Date; handled: boolean } & KeyedRow;
  const page = await readPage<Row>(db, webhookListSource(), start);
  return pageAs('events', page, (row): AdminWebhookEvent => ({
    id: row.id,
    type: row.type,
    received_at: iso(row.received_at),
    processed: row.handled,
  }));
}

/** The audit trail newest first (admin_actions_created_id_idx). */
export const actionListSource = (): ListSource => ({
  select: sql`select a.id, a.admin_username, a.action, a.target_user_id, a.target_id,
                a.details, a.created_at, ${cursorTimestampSql(sql`a.created_at`)} as sort_ts
              from admin_actions a`,
  where: [],
  ts: sql`a.created_at`,
  id: sql`a.id`,
  countFrom: sql`admin_actions a`,
});

export async function listActions(db: DbOrTx, start: PageStart) {
  type Row = {
    id: string;
    admin_username: string;
    action: string;
    target_user_id: string | null;
    target_id: string | null;
    details: Record<string, unknown>;
    created_at: Date;
  } & KeyedRow;
  const page = await readPage<Row>(db, actionListSource(), start);
  return pageAs('actions', page, (row): AdminAction => ({
    id: row.id,
    admin: row.admin_username,
    action: row.action,
    target_user_id: row.target_user_id,
    target_id: row.target_id,
    details: row.details,
    created_at: iso(row.created_at),
  }));
}
