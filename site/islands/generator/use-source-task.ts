/**
 * The video an extension continues (issue 35 item 3): its status, read once, so the generator
 * can show which clip is continued, how long the result will be and what it costs (an extension
 * keeps the source's shape and resolution).
 */
import { useEffect, useState } from 'react';
import type { PublicUser } from '../../../shared/api/auth.ts';
import type { TaskStatusData } from '../../../shared/api/video.ts';
import { getTaskStatus } from '../../lib/api/video.ts';

export type SourceTask =
  | { state: 'loading' }
  | { state: 'ready'; task: TaskStatusData }
  /** Not the user's, not finished, or not reachable: the server will say why on Generate. */
  | { state: 'unavailable' };

const known = new Map<string, SourceTask>();

/** The source task `taskId` (null: not extending; no user yet: loading). */
export function useSourceTask(taskId: string | null, user: PublicUser | null): SourceTask | null {
  const [loaded, setLoaded] = useState<{ key: string; value: SourceTask } | null>(null);
  const key = `${user?.id ?? ''}:${taskId ?? ''}`;

  useEffect(() => {
    if (!taskId || !user || known.has(key)) return;
    let active = true;
    getTaskStatus(taskId, user)
      .then((body): SourceTask => {
        const task = body?.success ? body.data : null;
        return task && String(task.status).toLowerCase() === 'completed'
          ? { state: 'ready', task }
          : { state: 'unavailable' };
      })
      .catch((): SourceTask => ({ state: 'unavailable' }))
      .then((value) => {
        known.set(key, value);
        if (active) setLoaded({ key, value });
      });
    return () => {
      active = false;
    };
  }, [taskId, user, key]);

  if (!taskId) return null;
  return known.get(key) ?? (loaded?.key === key ? loaded.value : { state: 'loading' });
}
