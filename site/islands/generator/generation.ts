/**
 * The generator's state machine (spec 4 "Generation" and "Polling", 8 "Generation"): submit a
 * task, poll its status until it completes, fails or the poll cap is reached, and pick a running
 * task up again after a reload. Kept outside React so polling survives re-renders and is easy to
 * stop from one place. The rules it applies are in generation-rules.ts.
 */
import { atom } from 'nanostores';
import type { GenerateResponse, TaskStatusData } from '../../../shared/api/video.ts';
import { OPTION_FIELDS } from '../../../shared/video-options.ts';
import { trackGenerateVideo } from '../../lib/analytics.ts';
import { httpStatus } from '../../lib/api/http.ts';
import { getTaskStatus, requestGeneration } from '../../lib/api/video.ts';
import { $user, updateUser } from '../../stores/auth.ts';
import { refreshCredits, setCredits } from '../../stores/credits.ts';
import {
  modelFor,
  nextPollStep,
  POLL_INTERVAL_MS,
  requestFailedError,
  type GenerationError,
  type GenerationInput,
  type GeneratorMode,
} from './generation-rules.ts';
import {
  clearStoredTask,
  readStoredTask,
  writeStoredTask,
  type StoredTask,
} from './stored-task.ts';
import { optionFields } from './video-choice.ts';

export type GenerationState =
  | { phase: 'idle' }
  | { phase: 'submitting'; mode: GeneratorMode; prompt: string; startedAt: number }
  | {
      phase: 'generating';
      taskId: string;
      mode: GeneratorMode;
      prompt: string;
      startedAt: number;
      progress: number;
      /** Lower-cased status of the last answer ('pending' until the first one). */
      status: string;
      statusMessage: string | null;
      /** The last status answer: the options, length and source the task was made with. */
      task: TaskStatusData | null;
    }
  | {
      phase: 'success';
      taskId: string;
      prompt: string;
      videoUrl: string;
      posterUrl: string | null;
      /** The completed task (options, length, source), when the server described it. */
      task: TaskStatusData | null;
    }
  /** The failure as data: the result panel words it in the page's language. */
  | { phase: 'error'; error: GenerationError };

const IDLE: GenerationState = { phase: 'idle' };

export const $generation = atom<GenerationState>(IDLE);

// ---------- Polling ----------

let activeTask: StoredTask | null = null;
let pollTimer: number | undefined;
/** Bumped by every start and stop, so an answer from an abandoned loop is ignored. */
let pollRun = 0;
let ownerId: string | null | undefined;

/** Stop polling (unmount, sign-out, reset). The task keeps running on the server. */
export function stopPolling(): void {
  pollRun += 1;
  window.clearTimeout(pollTimer);
  pollTimer = undefined;
  activeTask = null;
}

function finish(next: GenerationState): void {
  stopPolling();
  clearStoredTask();
  $generation.set(next);
}

function schedulePoll(run: number, delayMs: number, resumed: boolean): void {
  pollTimer = window.setTimeout(() => void pollOnce(run, resumed), delayMs);
}

async function pollOnce(run: number, resumed: boolean): Promise<void> {
  const task = activeTask;
  const user = $user.get();
  if (run !== pollRun || !task) return;
  if (!user || user.id !== task.userId) {
    finish(IDLE);
    return;
  }
  const attempt = task.polls + 1;
  let answer: TaskStatusData | null = null;
  let status: number | null = null;
  try {
    // One request per poll: the poll loop is the retry (5 s later).
    const body = await getTaskStatus(task.taskId, user);
    if (body?.success && body.data) answer = body.data;
  } catch (error) {
    status = httpStatus(error);
  }
  if (run !== pollRun) return;

  // A task restored after a reload that the server does not know for this user: forget it quietly.
  if (resumed && task.polls === 0 && (status === 401 || status === 403 || status === 404)) {
    finish(IDLE);
    return;
  }

  task.polls = attempt;
  const step = nextPollStep(answer, attempt);
  if (step.kind === 'success') {
    finish({
      phase: 'success',
      taskId: task.taskId,
      prompt: answer?.prompt || task.prompt,
      videoUrl: step.videoUrl,
      posterUrl: step.posterUrl,
      task: answer,
    });
    return;
  }
  if (step.kind === 'error') {
    finish({ phase: 'error', error: step.error });
    if (step.refunded) void refreshCredits({ force: true });
    return;
  }
  writeStoredTask(task);
  const current = $generation.get();
  if (answer && current.phase === 'generating' && current.taskId === task.taskId) {
    $generation.set({
      ...current,
      prompt: answer.prompt || current.prompt,
      progress: Math.max(0, Math.min(100, Math.round(answer.progress ?? 0))),
      status: String(answer.status).toLowerCase(),
      statusMessage: answer.status_message || null,
      task: answer,
    });
  }
  schedulePoll(run, step.delayMs, false);
}

function follow(task: StoredTask, firstDelayMs: number, resumed: boolean): void {
  stopPolling();
  activeTask = task;
  writeStoredTask(task);
  $generation.set({
    phase: 'generating',
    taskId: task.taskId,
    mode: task.mode,
    prompt: task.prompt,
    startedAt: task.startedAt,
    progress: 0,
    status: 'pending',
    statusMessage: null,
    task: null,
  });
  schedulePoll(pollRun, firstDelayMs, resumed);
}

/**
 * Submit a generation (spec 7 POST /api/video/generate) and start polling its task. The caller
 * has validated the input. Never retried: a repeated POST could charge twice.
 */
export async function submitGeneration(input: GenerationInput): Promise<void> {
  const user = $user.get();
  if (!user) {
    $generation.set({ phase: 'error', error: { kind: 'signInRequired' } });
    return;
  }
  stopPolling();
  const prompt = input.prompt.trim();
  const startedAt = Date.now();
  $generation.set({ phase: 'submitting', mode: input.mode, prompt, startedAt });

  const form = new FormData();
  form.set('prompt', prompt);
  form.set('model', modelFor(input.mode));
  // Issue 35: the options that differ from the default, then the files (fields before files).
  if (input.options) {
    for (const [name, value] of optionFields(input.options, input.extendTaskId ?? null))
      form.append(name, value);
  }
  // The end frame before the first frame: a user who cannot pay is refused at the first file,
  // and the price that refusal names then includes the end frame.
  if (input.mode === 'image' && input.lastFrame) {
    form.append(OPTION_FIELDS.lastFrame, input.lastFrame, input.lastFrame.name);
  }
  if (input.mode === 'image' && input.image) form.set('image', input.image, input.image.name);
  if (input.mode === 'text') {
    for (const file of input.referenceImages ?? [])
      form.append(OPTION_FIELDS.referenceImages, file, file.name);
  }

  let body: GenerateResponse | undefined;
  try {
    body = await requestGeneration(form, user);
  } catch (error) {
    $generation.set({ phase: 'error', error: requestFailedError(error) });
    // A 402 means our balance was stale, and a timed-out request may still have been charged.
    void refreshCredits({ force: true });
    return;
  }

  const taskId = body?.data?.taskId;
  if (!body?.success || !taskId) {
    // A 2xx answer that still reports failure carries its reason in `message`.
    const refusal = (body as { success?: unknown; message?: unknown } | undefined) ?? {};
    $generation.set({
      phase: 'error',
      error:
        refusal.success === false
          ? {
              kind: 'requestFailed',
              reason:
                typeof refusal.message === 'string' && refusal.message ? refusal.message : null,
              status: null,
              code: '',
            }
          : { kind: 'taskIdMissing' },
    });
    void refreshCredits({ force: true });
    return;
  }

  const remaining = body.data.remainingCredits;
  if (typeof remaining === 'number') {
    setCredits(remaining);
    // Spec 7: on success the local user's credits are updated too (header, other tabs).
    const current = $user.get();
    if (current?.id === user.id) updateUser({ ...current, credits: remaining });
  }
  trackGenerateVideo(input.mode === 'image' ? 'image_to_video' : 'text_to_video');
  follow(
    { taskId, userId: user.id, mode: input.mode, prompt, startedAt, polls: 0 },
    POLL_INTERVAL_MS,
    false,
  );
}

/** Try Again and Generate New (spec 4): back to idle, clearing message, result and poll count. */
export function resetGeneration(): void {
  finish(IDLE);
}

/**
 * Follow the signed-in user: another account (or none) drops what this page showed; the same
 * user picks up a task this tab started before a reload.
 */
export function syncGenerationUser(userId: string | null): void {
  if (ownerId !== undefined && ownerId !== userId) {
    stopPolling();
    $generation.set(IDLE);
  }
  ownerId = userId;
  if (!userId || activeTask) return;
  const phase = $generation.get().phase;
  if (phase === 'submitting' || phase === 'success' || phase === 'error') return;
  const stored = readStoredTask();
  if (!stored) return;
  if (stored.userId !== userId) {
    clearStoredTask();
    return;
  }
  follow(stored, 0, true);
}
