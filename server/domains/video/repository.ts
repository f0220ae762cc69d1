/** SQL for video tasks and the queue. Every function takes `db | tx` first. */
import { and, desc, eq, getTableColumns, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import { cursorTimestampSql, keysetBefore, type CursorKey } from '../../core/cursor.ts';
import { queryRows, type DbOrTx } from '../../core/db.ts';
import { videoTasks, type RouteAttempt, type VideoTaskRow } from '../../db/schema.ts';
import type { ApiText } from '../../core/api-messages.ts';
import { storedText, TASK_MESSAGES } from './messages.ts';

/** A task's status message as its columns: the English text and the key with parameters. */
const statusColumns = (text: ApiText) => ({
  statusMessage: text.render('en'),
  statusText: storedText(text),
});

/** A task to insert; its revenue may be an expression read in the insert (issue 37). */
export type NewVideoTask = Omit<typeof videoTasks.$inferInsert, 'revenueUsd'> & {
  revenueUsd?: string | SQL | null;
};

/** The task `id` while it is processing under `owner`'s lease. */
const heldBy = (id: string, owner: string) =>
  and(eq(videoTasks.id, id), eq(videoTasks.leaseOwner, owner), eq(videoTasks.status, 'processing'));

/** The columns that end a worker's hold on a task. */
const unleased = () => ({ leaseOwner: null, leaseExpiresAt: null, updatedAt: sql`now()` });

export async function insertTask(db: DbOrTx, task: NewVideoTask): Promise<void> {
  await db.insert(videoTasks).values(task);
}

/**
 * Unfinished tasks of a user (the site's cap), or of an API key (its own cap, issue 36;
 * video_tasks_api_key_unfinished_idx).
 */
export async function countUnfinished(
  db: DbOrTx,
  owner: string | { apiKeyId: string },
): Promise<number> {
  const whose =
    typeof owner === 'string' ? sql`user_id = ${owner}` : sql`api_key_id = ${owner.apiKeyId}`;
  const rows = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from video_tasks
        where ${whose} and status in ('pending', 'processing')`,
  );
  return rows[0]?.n ?? 0;
}

export async function findTask(db: DbOrTx, id: string): Promise<VideoTaskRow | null> {
  const [row] = await db.select().from(videoTasks).where(eq(videoTasks.id, id)).limit(1);
  return row ?? null;
}

/**
 * A user's history: completed videos with a result. The same predicate as the partial index
 * video_tasks_history_idx (user_id, completed_at, id), so every history query reads only it.
 * completed_at is set in the same update that completes a task; a row without one would have no
 * place in the keyset order, so it is left out rather than paged unreliably.
 */
const inHistory = (userId: string) =>
  and(
    eq(videoTasks.userId, userId),
    eq(videoTasks.status, 'completed'),
    isNotNull(videoTasks.resultUrl),
    isNotNull(videoTasks.completedAt),
  );

/** A history row with its sort key as text (microseconds, for the next page's cursor). */
export type HistoryRow = VideoTaskRow & { sortTs: string };

/**
 * `limit` of the user's completed videos, newest first by (completed_at, id): after `after` (a
 * cursor's key; constant time) or from `offset` (shallow pages). A backward range scan of
 * video_tasks_history_idx, no sort.
 */
export function completedPageQuery(
  db: DbOrTx,
  userId: string,
  limit: number,
  from: { offset?: number; after?: CursorKey } = {},
) {
  const t = videoTasks;
  return db
    .select({ ...getTableColumns(t), sortTs: cursorTimestampSql(t.completedAt) })
    .from(t)
    .where(and(inHistory(userId), from.after && keysetBefore(t.completedAt, t.id, from.after)))
    .orderBy(desc(t.completedAt), desc(t.id))
    .limit(limit)
    .offset(from.offset ?? 0);
}

export async function completedPage(
  db: DbOrTx,
  userId: string,
  limit: number,
  from: { offset?: number; after?: CursorKey } = {},
): Promise<HistoryRow[]> {
  return completedPageQuery(db, userId, limit, from);
}

/** Counts the user's completed videos, no further than `upTo` (the history index only). */
export function countCompletedQuery(db: DbOrTx, userId: string, upTo: number) {
  const inner = db
    .select({ one: sql`1` })
    .from(videoTasks)
    .where(inHistory(userId))
    .limit(upTo);
  return db.select({ n: sql<number>`count(*)::int` }).from(inner.as('t'));
}

/** How many completed videos the user has, counting no further than `upTo`. */
export async function countCompleted(db: DbOrTx, userId: string, upTo: number): Promise<number> {
  const [row] = await countCompletedQuery(db, userId, upTo);
  return row?.n ?? 0;
}

/**
 * Claims the task whose next step is most overdue for `owner` (a new task is due when created):
 * one waiting (pending, or processing between two status checks) whose `run_after` has come, or
 * one whose lease expired (its worker died), read from `video_tasks_due_idx`. SKIP
 * LOCKED lets several workers claim at once without waiting on each other or taking the same row.
 */
export async function claimTask(
  db: DbOrTx,
  owner: string,
  leaseMs: number,
): Promise<VideoTaskRow | null> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update video_tasks set
          lease_owner = ${owner},
          lease_expires_at = now() + make_interval(secs => ${leaseMs / 1000}),
          updated_at = now()
        where id = (
          select id from video_tasks
          where status in ('pending', 'processing')
            and (lease_expires_at is null or lease_expires_at < now())
            and run_after <= now()
          order by run_after
          for update skip locked
          limit 1
        )
        returning id`,
  );
  const id = rows[0]?.id;
  return id ? findTask(db, id) : null;
}

/** Extends the lease; false when this worker no longer holds the task. */
export async function renewLease(
  db: DbOrTx,
  id: string,
  owner: string,
  leaseMs: number,
): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update video_tasks set lease_expires_at = now() + make_interval(secs => ${leaseMs / 1000})
        where id = ${id} and lease_owner = ${owner} and status = 'processing'
        returning id`,
  );
  return rows.length > 0;
}

/** Progress and job id updates from the worker holding the lease. */
export async function updateProgress(
  db: DbOrTx,
  id: string,
  owner: string,
  changes: { progress?: number; statusMessage?: ApiText; providerJobId?: string },
): Promise<boolean> {
  const { statusMessage, ...rest } = changes;
  const rows = await db
    .update(videoTasks)
    .set({
      ...rest,
      ...(statusMessage ? statusColumns(statusMessage) : {}),
      updatedAt: sql`now()`,
    })
    .where(heldBy(id, owner))
    .returning({ id: videoTasks.id });
  return rows.length > 0;
}

export async function completeTask(
  db: DbOrTx,
  id: string,
  owner: string,
  result: { resultUrl: string; posterUrl: string | null },
): Promise<VideoTaskRow | null> {
  const rows = await db
    .update(videoTasks)
    .set({
      status: 'completed',
      progress: 100,
      ...statusColumns(TASK_MESSAGES.ready),
      resultUrl: result.resultUrl,
      posterUrl: result.posterUrl,
      completedAt: sql`now()`,
      ...unleased(),
    })
    .where(heldBy(id, owner))
    .returning();
  return rows[0] ?? null;
}

/**
 * Hands a task back until `waitMs` from now: `pending` while no provider has it, `processing`
 * between two status checks of its job (it keeps its job id, so any worker resumes it).
 */
export async function releaseTask(
  db: DbOrTx,
  id: string,
  owner: string,
  next: { status: 'pending' | 'processing'; message: ApiText; waitMs: number; progress?: number },
): Promise<void> {
  await db
    .update(videoTasks)
    .set({
      status: next.status,
      ...statusColumns(next.message),
      ...(next.progress === undefined
        ? {}
        : { progress: Math.max(0, Math.min(99, Math.round(next.progress))) }),
      runAfter: sql`now() + make_interval(secs => ${Math.max(0, next.waitMs) / 1000})`,
      ...unleased(),
    })
    .where(and(eq(videoTasks.id, id), eq(videoTasks.leaseOwner, owner)));
}

/** Marks a submit as sent: if the worker dies before it records the answer, it is in doubt. */
export async function markSubmitStarted(db: DbOrTx, id: string, owner: string): Promise<boolean> {
  const rows = await db
    .update(videoTasks)
    .set({ submitStartedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(videoTasks.id, id), eq(videoTasks.leaseOwner, owner)))
    .returning({ id: videoTasks.id });
  return rows.length > 0;
}

/**
 * Records one submit's outcome on the task (route_attempts, attempts) and, when the provider
 * accepted it, the job: from here on the task is that provider's and is never submitted again.
 */
export async function recordSubmit(
  db: DbOrTx,
  id: string,
  attempt: RouteAttempt,
  accepted?: { jobId: string; requestId: string },
): Promise<void> {
  await db
    .update(videoTasks)
    .set({
      routeAttempts: sql`${videoTasks.routeAttempts} || ${JSON.stringify([attempt])}::jsonb`,
      attempts: sql`${videoTasks.attempts} + 1`,
      submitStartedAt: null,
      updatedAt: sql`now()`,
      ...(accepted
        ? {
            status: 'processing' as const,
            provider: attempt.provider,
            providerModel: attempt.model,
            providerJobId: accepted.jobId,
            providerRequestId: accepted.requestId,
            submittedAt: sql`now()`,
            progress: 3,
          }
        : { providerError: `${attempt.provider}: ${attempt.outcome}` }),
    })
    .where(eq(videoTasks.id, id));
}

/** The provider said the job finished (either way): when, what it billed, its own error text. */
export async function recordProviderFinished(
  db: DbOrTx,
  id: string,
  /** costUsd: null or absent when nobody knows it (no report, no price in the table). */
  facts: { costUsd?: number | null; error?: string },
): Promise<void> {
  await db
    .update(videoTasks)
    .set({
      providerFinishedAt: sql`coalesce(${videoTasks.providerFinishedAt}, now())`,
      ...(facts.costUsd == null ? {} : { providerCostUsd: String(facts.costUsd) }),
      ...(facts.error === undefined ? {} : { providerError: facts.error.slice(0, 2000) }),
    })
    .where(eq(videoTasks.id, id));
}

/** A verified webhook: the job's task is checked at once instead of at its next poll. */
export async function nudgeByRequestId(
  db: DbOrTx,
  provider: string,
  requestId: string,
): Promise<number> {
  const rows = await db
    .update(videoTasks)
    .set({ runAfter: sql`now()` })
    .where(
      and(
        eq(videoTasks.providerRequestId, requestId),
        eq(videoTasks.provider, provider),
        inArray(videoTasks.status, ['pending', 'processing']),
      ),
    )
    .returning({ id: videoTasks.id });
  return rows.length;
}

/** How many tasks no provider has yet were queued before this one (at most 999 counted). */
export async function queuePosition(db: DbOrTx, task: VideoTaskRow): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from (
          select 1 from video_tasks
          where status = 'pending' and created_at < ${task.createdAt.toISOString()}
            and provider_job_id is null
          order by created_at limit 999
        ) ahead`,
  );
  return (rows[0]?.n ?? 0) + 1;
}

/**
 * Marks an unfinished task failed; returns its owner and the credits it was charged when this
 * call did it (so the caller refunds exactly that, once), null when it was already finished.
 * `reason` is the failure message given the credits refunded (a plain string: an operator's
 * note, stored as it is).
 */
export async function failTask(
  db: DbOrTx,
  id: string,
  reason: ((credits: number) => ApiText) | string,
  facts: { failureKind?: string; providerError?: string } = {},
): Promise<VideoTaskRow | null> {
  const unfinished = and(
    eq(videoTasks.id, id),
    inArray(videoTasks.status, ['pending', 'processing']),
  );
  // credits_charged never changes after the insert: read it to say what the refund returns.
  const [task] = await db
    .select({ creditsCharged: videoTasks.creditsCharged })
    .from(videoTasks)
    .where(unfinished);
  if (!task) return null;
  const text = typeof reason === 'string' ? null : reason(task.creditsCharged);
  const [row] = await db
    .update(videoTasks)
    .set({
      status: 'failed',
      errorMessage: text ? text.render('en') : (reason as string),
      errorText: text ? storedText(text) : null,
      ...statusColumns(TASK_MESSAGES.failed),
      // Issue 37: failAndRefund returns its credits in this transaction, so it brought nothing.
      revenueUsd: '0',
      ...(facts.failureKind ? { failureKind: facts.failureKind } : {}),
      ...(facts.providerError ? { providerError: facts.providerError.slice(0, 2000) } : {}),
      ...unleased(),
    })
    .where(unfinished)
    .returning();
  return row ?? null;
}

/** Unfinished tasks past their deadline that no live worker holds. */
export async function overdueTaskIds(db: DbOrTx): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select id from video_tasks
        where status in ('pending', 'processing') and deadline_at < now()
          and (lease_expires_at is null or lease_expires_at < now())
        limit 100`,
  );
  return rows.map((r) => r.id);
}

/**
 * How long the most overdue due task has waited for a worker, in seconds (0 when none is due):
 * the first row of `video_tasks_due_idx`.
 */
export async function queueLagSeconds(db: DbOrTx): Promise<number> {
  const rows = await queryRows<{ lag: number | null }>(
    db,
    sql`select extract(epoch from now() - min(run_after))::float8 as lag from video_tasks
        where status in ('pending', 'processing') and run_after <= now()
          and (lease_expires_at is null or lease_expires_at < now())`,
  );
  return Math.max(0, rows[0]?.lag ?? 0);
}
