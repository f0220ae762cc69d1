/**
 * A customer's right to delete (issue 34, finding 10): one video from the history page, or every
 * video of an account being closed. The result, poster and upload leave the media store first, so
 * a failure there leaves the task as it was, to be deleted again; then the row is blanked
 * (deletion-repository.ts), and history, status and the /media addresses answer 404. Credits and
 * the ledger are untouched: deleting a video is not a refund.
 */
import type { Db } from '../../core/db.ts';
import { conflict, notFound } from '../../core/errors.ts';
import { MEDIA_KEYS, type MediaStore } from '../../core/media-store/types.ts';
import { msg } from '../../core/api-messages.ts';
import {
  findUndeletedTask,
  markTasksDeleted,
  undeletedTasks,
  type TaskMedia,
} from './deletion-repository.ts';
import { MEDIA_PREFIX, taskUploads } from './media.ts';

/** Objects deleted at once: a closing account may hold hundreds. */
const DELETE_CONCURRENCY = 8;

const isFinished = (status: string) => status === 'completed' || status === 'failed';

/** The store keys of a task's objects: its result and poster under media/, and its upload. */
function mediaKeys(task: TaskMedia): string[] {
  const keys: string[] = [];
  for (const url of [task.resultUrl, task.posterUrl]) {
    if (url?.startsWith(MEDIA_PREFIX)) {
      keys.push(`${MEDIA_KEYS.media}${url.slice(MEDIA_PREFIX.length)}`);
    }
  }
  // Removed when its task ends; a worker that crashed in between may have left them.
  for (const name of taskUploads(task)) keys.push(`${MEDIA_KEYS.uploads}${name}`);
  return keys;
}

/** Deletes the objects, a few at a time (a missing one is not an error). */
async function removeObjects(store: MediaStore, keys: string[]): Promise<void> {
  const queue = [...keys];
  const work = async () => {
    for (let key = queue.shift(); key !== undefined; key = queue.shift()) await store.delete(key);
  };
  await Promise.all(Array.from({ length: Math.min(DELETE_CONCURRENCY, queue.length) }, work));
}

/**
 * Deletes one of the user's finished videos. Someone else's task, an unknown id and one already
 * deleted all answer 404 alike; a task still being made is refused (409): its worker would write
 * a result after the delete, and the customer would pay for a video that then reappears.
 */
export async function deleteVideo(
  db: Db,
  store: MediaStore,
  userId: string,
  taskId: string,
): Promise<void> {
  const task = await findUndeletedTask(db, userId, taskId);
  if (!task) throw notFound(msg('video.task_not_found'), 'TASK_NOT_FOUND');
  if (!isFinished(task.status)) {
    throw conflict(msg('video.delete_unfinished'), 'TASK_UNFINISHED');
  }
  await removeObjects(store, mediaKeys(task));
  await markTasksDeleted(db, userId, [task.id]);
}

/**
 * Deletes every finished video of the user (an account being closed, which first made sure
 * none is unfinished) and returns how many.
 */
export async function deleteUserVideos(db: Db, store: MediaStore, userId: string) {
  const tasks = (await undeletedTasks(db, userId)).filter((task) => isFinished(task.status));
  await removeObjects(store, tasks.flatMap(mediaKeys));
  const deleted = await markTasksDeleted(
    db,
    userId,
    tasks.map((task) => task.id),
  );
  return deleted.length;
}
