/**
 * The generator's state machine (spec 4 "Generation" and "Polling", 8 "Generation"): submit a
 * task, poll its status until it completes, fails or the poll cap is reached, and pick a running
 * task up again after a reload. Kept outside React so polling survives re-renders and is easy to
 * stop from one place.
 */
import { isHTTPError } from 'ky';
import { atom } from 'nanostores';
import type { PublicUser } from '../../../server/contracts/auth.ts';
import {
  GENERATE_MESSAGES,
  IMAGE_MODEL,
  MODEL_NAMES,
  TEXT_MODEL,
  VIDEO_COST,
  type GenerateResponse,
  type TaskStatusData,
  type TaskStatusResponse,
} from '../../../server/contracts/video.ts';
import { trackGenerateVideo } from '../../lib/analytics.ts';
import { api, readApiError, REQUEST_TIMEOUT_MS } from '../../lib/api.ts';
import { $user, updateUser } from '../../stores/auth.ts';
import { refreshCredits, setCredits } from '../../stores/credits.ts';

export type GeneratorMode = 'text' | 'image';

/** Spec 9: poll every 3 s, 5 s after an unknown status or a failed request, at most 120 times. */
export const POLL_INTERVAL_MS = 3000;
export const POLL_RETRY_MS = 5000;
export const MAX_POLLS = 120;

/** Spec 4 and 8: the generation texts, quoted exactly. */
export const GENERATION_MESSAGES = {
  taskIdMissing: 'Unable to get task ID',
  videoUrlMissing: 'Video URL missing, please try again',
  failed: 'Video generation failed, please try again',
  timedOut: 'Video generation timed out, please try again later',
  network: 'Network error, please check connection and try again',
} as const;

/** Text mode uses `{product}`, image mode `{product}-fast-frames` (spec 3). */
export function modelFor(mode: GeneratorMode): string {
  return mode === 'image' ? IMAGE_MODEL : TEXT_MODEL;
}

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
    }
  | {
      phase: 'success';
      taskId: string;
      prompt: string;
      videoUrl: string;
      posterUrl: string | null;
    }
  | { phase: 'error'; message: string };

const IDLE: GenerationState = { phase: 'idle' };

export const $generation = atom<GenerationState>(IDLE);

// ---------- Validation ----------

export interface GenerationInput {
  mode: GeneratorMode;
  prompt: string;
  image: File | null;
}

/** Spec 5 "Generate", in the spec's order; null when the request may be sent. */
export function validateGeneration(
  input: GenerationInput,
  user: Pick<PublicUser, 'id'> | null,
  credits: number,
): string | null {
  if (input.prompt.trim() === '') return GENERATE_MESSAGES.promptRequired;
  if (input.mode === 'image' && !input.image) return GENERATE_MESSAGES.imageRequired;
  if (!user?.id) return GENERATE_MESSAGES.signInRequired;
  if (credits < VIDEO_COST) {
    const model = modelFor(input.mode);
    return GENERATE_MESSAGES.notEnoughCredits(MODEL_NAMES[model] ?? model, VIDEO_COST, credits);
  }
  return null;
}

// ---------- Polling rules ----------

export type PollStep =
  | { kind: 'success'; videoUrl: string; posterUrl: string | null }
  | { kind: 'error'; message: string; refunded: boolean }
  | { kind: 'wait'; delayMs: number };

type TaskAnswer = Pick<TaskStatusData, 'result_url' | 'poster_url' | 'error_message'> & {
  status: string;
};

/**
 * Spec 4 "Polling" as one rule: what answer number `attempt` (1-based) means. `task` is null
 * when the status request failed.
 */
export function nextPollStep(task: TaskAnswer | null, attempt: number): PollStep {
  const capReached = attempt >= MAX_POLLS;
  if (task === null) {
    return capReached
      ? { kind: 'error', message: GENERATION_MESSAGES.network, refunded: false }
      : { kind: 'wait', delayMs: POLL_RETRY_MS };
  }
  const status = String(task.status ?? '').toLowerCase();
  if (status === 'completed') {
    return task.result_url
      ? { kind: 'success', videoUrl: task.result_url, posterUrl: task.poster_url ?? null }
      : { kind: 'error', message: GENERATION_MESSAGES.videoUrlMissing, refunded: false };
  }
  if (status === 'failed') {
    // The server refunds failed tasks, so the balance changes.
    return {
      kind: 'error',
      message: task.error_message || GENERATION_MESSAGES.failed,
      refunded: true,
    };
  }
  if (capReached) return { kind: 'error', message: GENERATION_MESSAGES.timedOut, refunded: false };
  const known = status === 'processing' || status === 'pending';
  return { kind: 'wait', delayMs: known ? POLL_INTERVAL_MS : POLL_RETRY_MS };
}

/** Spec 8: 'Request failed: {message}' with the server's message, the HTTP status or neither. */
export function requestFailedMessage(error: unknown): string {
  const reason =
    readApiError(error)?.message ||
    (isHTTPError(error) ? `HTTP error: ${error.response.status}` : 'Unknown error');
  return `Request failed: ${reason}`;
}

// ---------- The running task, kept for reloads ----------

/** sessionStorage: a reload of this tab keeps following its task; other tabs do not. */
const TASK_STORAGE_KEY = 'generator.task';

interface StoredTask {
  taskId: string;
  userId: string;
  mode: GeneratorMode;
  prompt: string;
  startedAt: number;
  /** Polls already made, so a reload does not restart the 120-poll cap. */
  polls: number;
}

function readStoredTask(): StoredTask | null {
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

function writeStoredTask(task: StoredTask): void {
  try {
    window.sessionStorage.setItem(TASK_STORAGE_KEY, JSON.stringify(task));
  } catch {
    // Storage blocked: the task still runs, it just will not survive a reload.
  }
}

function clearStoredTask(): void {
  try {
    window.sessionStorage.removeItem(TASK_STORAGE_KEY);
  } catch {
    // Nothing stored.
  }
}

// ---------- Requests ----------

/** Spec 6: generation and status requests name the user (the api client adds the bearer token). */
function identityHeaders(user: PublicUser): Record<string, string> {
  const headers: Record<string, string> = { 'x-user-id': user.id };
  // Header values must be Latin-1; an address outside it is left to the bearer token.
  if (/^[\x20-\x7e]+$/.test(user.email)) headers['x-user-email'] = user.email;
  return headers;
}

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
  let httpStatus: number | null = null;
  try {
    // One request per poll: the poll loop is the retry (5 s later).
    const body = await api
      .get(`/api/video/status/${encodeURIComponent(task.taskId)}`, {
        headers: identityHeaders(user),
        retry: 0,
      })
      .json<TaskStatusResponse>();
    if (body?.success && body.data) answer = body.data;
  } catch (error) {
    if (isHTTPError(error)) httpStatus = error.response.status;
  }
  if (run !== pollRun) return;

  // A task restored after a reload that the server does not know for this user: forget it quietly.
  if (
    resumed &&
    task.polls === 0 &&
    (httpStatus === 401 || httpStatus === 403 || httpStatus === 404)
  ) {
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
    });
    return;
  }
  if (step.kind === 'error') {
    finish({ phase: 'error', message: step.message });
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
    $generation.set({ phase: 'error', message: GENERATE_MESSAGES.signInRequired });
    return;
  }
  stopPolling();
  const prompt = input.prompt.trim();
  const startedAt = Date.now();
  $generation.set({ phase: 'submitting', mode: input.mode, prompt, startedAt });

  const form = new FormData();
  form.set('prompt', prompt);
  form.set('model', modelFor(input.mode));
  if (input.mode === 'image' && input.image) form.set('image', input.image, input.image.name);

  let body: GenerateResponse | undefined;
  try {
    body = await api
      .post('/api/video/generate', {
        body: form,
        headers: identityHeaders(user),
        retry: 0,
        timeout: REQUEST_TIMEOUT_MS,
      })
      .json<GenerateResponse>();
  } catch (error) {
    $generation.set({ phase: 'error', message: requestFailedMessage(error) });
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
      message:
        refusal.success === false
          ? `Request failed: ${typeof refusal.message === 'string' && refusal.message ? refusal.message : 'Unknown error'}`
          : GENERATION_MESSAGES.taskIdMissing,
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
