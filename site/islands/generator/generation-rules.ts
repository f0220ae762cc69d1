/**
 * The generator's rules as plain functions (spec 4 "Polling", 5 "Generate", 8 "Generation"): what
 * a submission needs, what each status answer means, and the texts the user sees (from
 * messages/generator/, in the page's language).
 */
import type { PublicUser } from '../../../shared/api/auth.ts';
import type { TaskStatusData } from '../../../shared/api/video.ts';
import { IMAGE_MODEL, MODEL_NAMES, TEXT_MODEL, VIDEO_COST } from '../../../shared/video.ts';
import type { VideoOptions } from '../../../shared/video-options.ts';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { httpStatus, readApiError } from '../../lib/api/http.ts';

export type GeneratorMode = 'text' | 'image';

/** Spec 9: poll every 3 s, 5 s after an unknown status or a failed request, at most 120 times. */
export const POLL_INTERVAL_MS = 3000;
const POLL_RETRY_MS = 5000;
const MAX_POLLS = 120;

/** Spec 4 and 8: the generation failures the panel words (m.generator_task_id_missing, …). */
type GenerationFailure = 'taskIdMissing' | 'videoUrlMissing' | 'failed' | 'timedOut' | 'network';

/**
 * Why a generation failed, as data: the result panel words it in the page's language and picks
 * the next step from it. `task` is a failed task's own message and `requestFailed` a refused
 * request, both from the server (which answers in the page's language).
 */
export type GenerationError =
  | { kind: GenerationFailure | 'signInRequired' }
  | { kind: 'task'; message: string }
  | { kind: 'requestFailed'; reason: string | null; status: number | null; code: string };

/** The text of a failure in a language. */
export function generationErrorText(error: GenerationError, locale: Locale): string {
  switch (error.kind) {
    case 'taskIdMissing':
      return m.generator_task_id_missing(locale);
    case 'videoUrlMissing':
      return m.generator_video_url_missing(locale);
    case 'failed':
      return m.generator_failed(locale);
    case 'timedOut':
      return m.generator_timed_out(locale);
    case 'network':
      return m.generator_network(locale);
    case 'signInRequired':
      return m.generator_sign_in_required(locale);
    case 'task':
      return error.message;
    case 'requestFailed': {
      // Spec 8: 'Request failed: {message}' with the server's message, the HTTP status or neither.
      const reason =
        error.reason ||
        (error.status === null
          ? m.generator_unknown_error(locale)
          : m.generator_http_error(locale, { status: error.status }));
      return m.generator_request_failed(locale, { reason });
    }
  }
}

/**
 * What to do next after a failure besides Try Again (issue 20 item 12): buy credits when there
 * were too few, log in when signed out, look in History when the page lost track of a task that
 * may still finish.
 */
export function nextStepFor(error: GenerationError): 'buyCredits' | 'signIn' | 'history' | null {
  if (error.kind === 'requestFailed') {
    if (error.code === 'INSUFFICIENT_CREDITS' || error.status === 402) return 'buyCredits';
    if (error.code === 'SIGN_IN_REQUIRED') return 'signIn';
    return null;
  }
  if (error.kind === 'signInRequired') return 'signIn';
  if (error.kind === 'timedOut' || error.kind === 'network') return 'history';
  return null;
}

/** Text mode uses `{product}`, image mode `{product}-fast-frames` (spec 3). */
export function modelFor(mode: GeneratorMode): string {
  return mode === 'image' ? IMAGE_MODEL : TEXT_MODEL;
}

// ---------- Validation ----------

export interface GenerationInput {
  mode: GeneratorMode;
  prompt: string;
  image: File | null;
  /** Issue 35: the options (sent only where they differ from the default). */
  options?: VideoOptions;
  /** The finished video this one continues. */
  extendTaskId?: string | null;
  /** Image mode: the image the video ends on. */
  lastFrame?: File | null;
  /** Text mode: 1–3 images to keep a subject the same. */
  referenceImages?: File[];
}

/**
 * Spec 5 "Generate", in the spec's order, in the page's language (English: the texts of
 * GENERATE_MESSAGES in shared/video.ts, which the server answers with); null when the request may
 * be sent. `cost` is the price of the chosen options (17 for the spec's clip).
 */
export function validateGeneration(
  input: GenerationInput,
  user: Pick<PublicUser, 'id'> | null,
  credits: number,
  locale: Locale = 'en',
  cost: number = VIDEO_COST,
): string | null {
  if (input.prompt.trim() === '') return m.generator_prompt_required(locale);
  if (input.mode === 'image' && !input.image) return m.generator_image_required(locale);
  if (!user?.id) return m.generator_sign_in_required(locale);
  if (credits < cost) {
    const model = modelFor(input.mode);
    return m.generator_not_enough_credits_detail(locale, {
      model: MODEL_NAMES[model] ?? model,
      cost,
      have: credits,
    });
  }
  return null;
}

// ---------- Polling rules ----------

export type PollStep =
  | { kind: 'success'; videoUrl: string; posterUrl: string | null }
  | { kind: 'error'; error: GenerationError; refunded: boolean }
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
      ? { kind: 'error', error: { kind: 'network' }, refunded: false }
      : { kind: 'wait', delayMs: POLL_RETRY_MS };
  }
  const status = String(task.status ?? '').toLowerCase();
  if (status === 'completed') {
    return task.result_url
      ? { kind: 'success', videoUrl: task.result_url, posterUrl: task.poster_url ?? null }
      : { kind: 'error', error: { kind: 'videoUrlMissing' }, refunded: false };
  }
  if (status === 'failed') {
    // The server refunds failed tasks, so the balance changes.
    return {
      kind: 'error',
      error: task.error_message
        ? { kind: 'task', message: task.error_message }
        : { kind: 'failed' },
      refunded: true,
    };
  }
  if (capReached) return { kind: 'error', error: { kind: 'timedOut' }, refunded: false };
  const known = status === 'processing' || status === 'pending';
  return { kind: 'wait', delayMs: known ? POLL_INTERVAL_MS : POLL_RETRY_MS };
}

/** A request that failed, as a failure (see generationErrorText for its text). */
export function requestFailedError(error: unknown): GenerationError {
  const answer = readApiError(error);
  return {
    kind: 'requestFailed',
    reason: answer?.message || null,
    status: httpStatus(error),
    code: answer?.code ?? '',
  };
}
