/** SQL for video tasks and the queue. Every function takes `db | tx` first. */
import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../core/db.ts';
import { videoTasks, type VideoTaskRow } from '../../db/schema.ts';

export type NewVideoTask = typeof videoTasks.$inferInsert;

/** The task `id` while it is processing under `owner`'s lease. */
const heldBy = (id: string, owner: string) =>
  and(eq(videoTasks.id, id), eq(videoTasks.leaseOwner, owner), eq(videoTasks.status, 'processing'));

/** The columns that end a worker's hold on a task. */
const unleased = () => ({ leaseOwner: null, leaseExpiresAt: null, updatedAt: sql`now()` });

export async function insertTask(db: DbOrTx, task: NewVideoTask): Promise<void> {
  await db.insert(videoTasks).values(task);
}

export async function countUnfinished(db: DbOrTx, userId: string): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from video_tasks
        where user_id = ${userId} and status in ('pending', 'processing')`,
  );
  return rows[0]?.n ?? 0;
}

export async function findTask(db: DbOrTx, id: string): Promise<VideoTaskRow | null> {
  const [row] = await db.select().from(videoTasks).where(eq(videoTasks.id, id)).limit(1);
  return row ?? null;
}

/** A page of the user's completed videos, newest first, and their total. */
export async function completedPage(db: DbOrTx, userId: string, limit: number, offset: number) {
  const where = and(
    eq(videoTasks.userId, userId),
    eq(videoTasks.status, 'completed'),
    isNotNull(videoTasks.resultUrl),
  );
  const [rows, count] = await Promise.all([
    db
      .select()
      .from(videoTasks)
      .where(where)
      .orderBy(desc(videoTasks.completedAt), desc(videoTasks.id))
      .limit(limit)
      .offset(offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(videoTasks)
      .where(where),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}

/**
 * Claims the oldest claimable task for `owner`: a pending one, or a processing one whose lease
 * expired (its worker died). SKIP LOCKED lets several workers claim at once without waiting on
 * each other or taking the same row.
 */
export async function claimTask(
  db: DbOrTx,
  owner: string,
  leaseMs: number,
): Promise<VideoTaskRow | null> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update video_tasks set
          status = 'processing',
          lease_owner = ${owner},
          lease_expires_at = now() + make_interval(secs => ${leaseMs / 1000}),
          attempts = attempts + 1,
          updated_at = now()
        where id = (
          select id from video_tasks
          where status = 'pending'
             or (status = 'processing' and (lease_expires_at is null or lease_expires_at < now()))
          order by created_at
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
  changes: { progress?: number; statusMessage?: string; providerJobId?: string },
): Promise<boolean> {
  const rows = await db
    .update(videoTasks)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(heldBy(id, owner))
    .returning({ id: videoTasks.id });
  return rows.length > 0;
}

export async function completeTask(
  db: DbOrTx,
  id: string,
  owner: string,
  result: { resultUrl: string; posterUrl: string | null },
): Promise<boolean> {
  const rows = await db
    .update(videoTasks)
    .set({
      status: 'completed',
      progress: 100,
      statusMessage: 'Video ready',
      resultUrl: result.resultUrl,
      posterUrl: result.posterUrl,
      completedAt: sql`now()`,
      ...unleased(),
    })
    .where(heldBy(id, owner))
    .returning({ id: videoTasks.id });
  return rows.length > 0;
}

/** Gives a task back to the queue for another attempt (keeps its provider job id to resume). */
export async function releaseTask(
  db: DbOrTx,
  id: string,
  owner: string,
  message: string,
): Promise<void> {
  await db
    .update(videoTasks)
    .set({
      status: 'pending',
      statusMessage: message,
      ...unleased(),
    })
    .where(heldBy(id, owner));
}

/**
 * Marks an unfinished task failed; returns its owner and model when this call did it (so the
 * caller refunds exactly once), null when it was already finished.
 */
export async function failTask(
  db: DbOrTx,
  id: string,
  reason: string,
): Promise<{ userId: string } | null> {
  const [row] = await db
    .update(videoTasks)
    .set({
      status: 'failed',
      errorMessage: reason,
      statusMessage: 'Failed',
      ...unleased(),
    })
    .where(and(eq(videoTasks.id, id), inArray(videoTasks.status, ['pending', 'processing'])))
    .returning({ userId: videoTasks.userId });
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
