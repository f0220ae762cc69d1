/**
 * The generator's rules as plain functions (spec 4 "Polling", 5 "Generate", 8 "Generation"): what
 * a submission needs, what each status answer means, and the texts the user sees.
 */
import type { PublicUser } from '../../../server/contracts/auth.ts';
import type { TaskStatusData } from '../../../server/contracts/video.ts';
import {
  GENERATE_MESSAGES,
  IMAGE_MODEL,
  MODEL_NAMES,
  TEXT_MODEL,
  VIDEO_COST,
} from '../../../shared/video.ts';
import { httpStatus, readApiError } from '../../lib/api/http.ts';

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
  const status = httpStatus(error);
  const reason =
    readApiError(error)?.message || (status === null ? 'Unknown error' : `HTTP error: ${status}`);
  return `Request failed: ${reason}`;
}
