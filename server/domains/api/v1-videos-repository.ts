/**
 * SQL for reading a developer's videos through /v1 (issue 36). Every function takes `db | tx`
 * first. Deleted videos are left out: to the API they no longer exist.
 */
import { and, desc, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import { cursorTimestampSql, keysetBefore, type CursorKey } from '../../core/cursor.ts';
import type { Db, DbOrTx } from '../../core/db.ts';
import { videoTasks, type VideoTaskRow } from '../../db/schema.ts';

/**
 * One of the user's videos that was not deleted, or null (someone else's, unknown, deleted): the
 * read behind every poll of GET /v1/videos/{id} that its process has no copy of (a video being
 * made changes often). Prepared once per database: drizzle builds its SQL once (building it was a
 * third of the app thread's JavaScript for this read; 980 → 810 µs of server CPU a read on
 * PGlite), and PostgreSQL plans it once per connection.
 */
export function prepareFindOwnVideo(db: Db) {
  const t = videoTasks;
  const query = db
    .select()
    .from(t)
    .where(
      and(
        eq(t.id, sql.placeholder('id')),
        eq(t.userId, sql.placeholder('userId')),
        isNull(t.deletedAt),
      ),
    )
    .limit(1)
    .prepare('v1_find_own_video');
  return async (userId: string, id: string): Promise<VideoTaskRow | null> => {
    const [row] = await query.execute({ id, userId });
    return row ?? null;
  };
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
