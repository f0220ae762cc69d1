/**
 * SQL for reading a developer's videos through /v1 (issue 36). Every function takes `db | tx`
 * first. Deleted videos are left out: to the API they no longer exist.
 */
import { and, desc, eq, getTableColumns, isNull } from 'drizzle-orm';
import { cursorTimestampSql, keysetBefore, type CursorKey } from '../../core/cursor.ts';
import type { DbOrTx } from '../../core/db.ts';
import { videoTasks, type VideoTaskRow } from '../../db/schema.ts';

/** One of the user's videos that was not deleted, or null (someone else's, unknown, deleted). */
export async function findOwnVideo(
  db: DbOrTx,
  userId: string,
  id: string,
): Promise<VideoTaskRow | null> {
  const t = videoTasks;
  const [row] = await db
    .select()
    .from(t)
    .where(and(eq(t.id, id), eq(t.userId, userId), isNull(t.deletedAt)))
    .limit(1);
  return row ?? null;
}

/** A listed video with its sort key as text (microseconds, for the next page's cursor). */
export type ListedVideo = VideoTaskRow & { sortTs: string };

/**
 * `limit` of the user's videos newest first by (created_at, id), after `after` when given: a
 * backward range scan of video_tasks_user_idx (user_id, created_at, id), no sort, no count.
 */
export async function listVideos(
  db: DbOrTx,
  userId: string,
  limit: number,
  filter: { status?: VideoTaskRow['status'] | undefined; after?: CursorKey | undefined },
): Promise<ListedVideo[]> {
  const t = videoTasks;
  return db
    .select({ ...getTableColumns(t), sortTs: cursorTimestampSql(t.createdAt) })
    .from(t)
    .where(
      and(
        eq(t.userId, userId),
        isNull(t.deletedAt),
        filter.status && eq(t.status, filter.status),
        filter.after && keysetBefore(t.createdAt, t.id, filter.after),
      ),
    )
    .orderBy(desc(t.createdAt), desc(t.id))
    .limit(limit);
}
