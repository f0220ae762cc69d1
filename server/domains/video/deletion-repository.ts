/**
 * SQL for deleting videos (issue 34, finding 10). A deleted task keeps its row, blanked: the
 * ledger's charge and refund rows name it (`video_task:{id}`, `refund:{id}`) and stay for
 * accounting. Every function takes `db | tx` first.
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../core/db.ts';
import { videoTasks } from '../../db/schema.ts';

/** What names a task's objects in the media store. */
export interface TaskMedia {
  id: string;
  status: string;
  resultUrl: string | null;
  posterUrl: string | null;
  inputImage: string | null;
  /** Says which end frame and reference images it has (media.ts taskUploads). */
  options: { lastFrame: boolean; referenceImages: number } | null;
}

/** Only finished tasks are deleted: a worker may still write to an unfinished one. */
const FINISHED = ['completed', 'failed'] as const;

const mediaColumns = {
  id: videoTasks.id,
  status: videoTasks.status,
  resultUrl: videoTasks.resultUrl,
  posterUrl: videoTasks.posterUrl,
  inputImage: videoTasks.inputImage,
  options: videoTasks.options,
};

/** One task of the user, unless it is deleted (someone else's is null too). */
export async function findUndeletedTask(
  db: DbOrTx,
  userId: string,
  taskId: string,
): Promise<TaskMedia | null> {
  const [row] = await db
    .select(mediaColumns)
    .from(videoTasks)
    .where(
      and(eq(videoTasks.id, taskId), eq(videoTasks.userId, userId), isNull(videoTasks.deletedAt)),
    )
    .limit(1);
  return row ?? null;
}

/** The user's tasks not deleted yet, finished or not, with what names their media. */
export async function undeletedTasks(db: DbOrTx, userId: string): Promise<TaskMedia[]> {
  return db
    .select(mediaColumns)
    .from(videoTasks)
    .where(and(eq(videoTasks.userId, userId), isNull(videoTasks.deletedAt)));
}

/**
 * Blanks finished tasks of the user: no prompt, no media addresses, deleted_at set. Returns the
 * ids it changed (an unfinished or already deleted task is left as it is).
 */
export async function markTasksDeleted(
  db: DbOrTx,
  userId: string,
  ids: string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .update(videoTasks)
    .set({
      deletedAt: sql`now()`,
      prompt: '',
      resultUrl: null,
      posterUrl: null,
      inputImage: null,
      // The negative prompt is the customer's words too (issue 35); the shape may stay.
      options: sql`case when ${videoTasks.options} is null then null
        else jsonb_set(${videoTasks.options}, '{negativePrompt}', 'null'::jsonb) end`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(videoTasks.userId, userId),
        inArray(videoTasks.id, ids),
        inArray(videoTasks.status, [...FINISHED]),
        isNull(videoTasks.deletedAt),
      ),
    )
    .returning({ id: videoTasks.id });
  return rows.map((row) => row.id);
}
