/**
 * The running generation task, kept in sessionStorage so a reload of this tab keeps following it
 * (other tabs do not).
 */
import type { GeneratorMode } from './generation-rules.ts';

const TASK_STORAGE_KEY = 'generator.task';

export interface StoredTask {
  taskId: string;
  userId: string;
  mode: GeneratorMode;
  prompt: string;
  startedAt: number;
  /** Polls already made, so a reload does not restart the 120-poll cap. */
  polls: number;
}

export function readStoredTask(): StoredTask | null {
  try {
    const raw = window.sessionStorage.getItem(TASK_STORAGE_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<StoredTask>;
    if (typeof value.taskId !== 'string' || typeof value.userId !== 'string') return null;
    return {
      taskId: value.taskId,
      userId: value.userId,
      mode: value.mode === 'image' ? 'image' : 'text',
      prompt: typeof value.prompt === 'string' ? value.prompt : '',
      startedAt: typeof value.startedAt === 'number' ? value.startedAt : Date.now(),
      polls: typeof value.polls === 'number' ? value.polls : 0,
    };
  } catch {
    return null;
  }
}

export function writeStoredTask(task: StoredTask): void {
  try {
    window.sessionStorage.setItem(TASK_STORAGE_KEY, JSON.stringify(task));
  } catch {
    // Storage blocked: the task still runs, it just will not survive a reload.
  }
}

export function clearStoredTask(): void {
  try {
    window.sessionStorage.removeItem(TASK_STORAGE_KEY);
  } catch {
    // Nothing stored.
  }
}
