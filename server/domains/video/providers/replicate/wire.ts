/**
 * Replicate's wire format in one place: the create-prediction request we send, the reading of a
 * prediction object into our job states, and the reading of Replicate's error JSON. The adapter
 * (../replicate.ts) never touches raw JSON. Sources: Replicate's OpenAPI description
 * (api.replicate.com, "1.0.0-a1", as vendored by tryAGI/Replicate on 2026-04-09:
 * `schemas_version_prediction_request`, `schemas_prediction_response`, the Cancel-After header
 * parameter) and replicate-javascript 1.4.0 (`index.d.ts` Prediction).
 *
 * A prediction: `{ id, model, version, input, output, error, logs, status, created_at,
 * started_at?, completed_at?, urls: { get, cancel, stream?, web }, metrics?, data_removed,
 * deadline? }`, status one of starting | processing | succeeded | failed | canceled | aborted
 * (`aborted`: a Cancel-After deadline hit before it started, not billed).
 *
 * Safety refusals: Replicate's Veo models end `failed` with the refusal in the `error` string;
 * no structured code exists (the OpenAPI types `error` as a plain string). Replicate's own
 * filter says "The input or output was flagged as sensitive. Please try again with different
 * inputs. (E005)"; Google's texts passed through say "... violate(s) ... usage guidelines ...
 * Support codes: N" or "... Responsible AI practices". Anything else is a provider failure.
 */
import type { ParsedError } from '../http.ts';
import type { VideoJobInput, VideoJobState } from '../types.ts';
import { dataUri } from '../image.ts';
import { objectOr, stringOr, type Json } from '../json.ts';

/** Replicate's API (the descriptor's default; tests use their fake). */
export const DEFAULT_REPLICATE_API_URL = 'https://api.replicate.com/v1';

/** Safety-filter wording (Replicate's E005 and Google's texts); see the header comment. */
const SAFETY_TEXT =
  /flagged as sensitive|\bE005\b|usage guidelines|responsible ai|safety (filter|system|review|violation|polic)|content polic|support codes?:/i;

const isSafetyRefusal = (text: string): boolean => SAFETY_TEXT.test(text);

/**
 * A model reference from the route: `owner/name` (an official model, run through
 * `/models/{owner}/{name}/predictions`, always its current version) or `owner/name:version`
 * (a pinned version, run through `/predictions` with `version`). Null when malformed.
 */
export function parseModelRef(
  model: string,
): { owner: string; name: string; version?: string } | null {
  const match = /^([\w.-]+)\/([\w.-]+)(?::([\w.-]+))?$/.exec(model.trim());
  if (!match) return null;
  const [, owner = '', name = '', version] = match;
  return version === undefined ? { owner, name } : { owner, name, version };
}

/**
 * What a job asks for: one 8-second clip with audio, in the options' shape and resolution.
 * `duration` is an integer (the model's schema: 4 | 6 | 8); `resolution` is always sent because
 * veo-3.1 defaults to 1080p and -fast to 720p. The negative prompt and seed go only when chosen,
 * so the spec's clip sends exactly what it always did. Images go inline as data URIs: Replicate
 * takes URLs or data URIs for file inputs and keeps no copy of a data URI.
 */
export function predictionInput(input: VideoJobInput): Json {
  const { options } = input;
  return {
    prompt: input.prompt,
    duration: 8,
    aspect_ratio: options.aspectRatio,
    resolution: options.resolution,
    generate_audio: true,
    ...(input.image ? { image: dataUri(input.image) } : {}),
    ...(input.lastFrame ? { last_frame: dataUri(input.lastFrame) } : {}),
    ...(input.referenceImages?.length
      ? { reference_images: input.referenceImages.map(dataUri) }
      : {}),
    ...(options.negativePrompt ? { negative_prompt: options.negativePrompt } : {}),
    ...(options.seed !== null ? { seed: options.seed } : {}),
  };
}

/**
 * The Cancel-After header for a deadline: whole seconds from now (the header counts from the
 * prediction's creation, a moment after this), at least 5 s, the documented minimum. A job past
 * the deadline then ends `aborted` (not billed) if it never started, or `canceled`.
 */
export function cancelAfter(deadlineAt: Date, nowMs: number): string {
  const seconds = Math.ceil((deadlineAt.getTime() - nowMs) / 1000);
  return `${Math.max(5, Number.isFinite(seconds) ? seconds : 5)}s`;
}

export interface Prediction {
  id: string;
  status: string;
  output: unknown;
  error: string | null;
  dataRemoved: boolean;
}

/** A prediction object, or undefined when the answer is not one. */
export function parsePrediction(value: unknown): Prediction | undefined {
  const body = objectOr(value);
  const id = stringOr(body?.id);
  const status = stringOr(body?.status);
  if (!body || !id || !status) return undefined;
  const error = body.error;
  return {
    id,
    status,
    output: body.output,
    // Typed as a string, but a model may put anything there: keep it readable for the logs.
    error:
      error === null || error === undefined
        ? null
        : typeof error === 'string'
          ? error
          : JSON.stringify(error),
    dataRemoved: body.data_removed === true,
  };
}

/** A prediction as one of our job states. */
export function jobState(prediction: Prediction): VideoJobState {
  switch (prediction.status) {
    case 'starting':
      return { state: 'queued' };
    case 'processing':
      return { state: 'running' };
    case 'succeeded':
      // Replicate reports no price per prediction (metrics hold only times), so no costUsd.
      return { state: 'succeeded' };
    case 'failed': {
      const detail = prediction.error || 'the prediction failed without an error message';
      return {
        state: 'failed',
        kind: isSafetyRefusal(detail) ? 'content_policy' : 'provider',
        detail,
      };
    }
    case 'canceled':
      return {
        state: 'failed',
        kind: 'provider',
        detail:
          prediction.error ||
          'canceled (by a cancel call, or its Cancel-After deadline passed while running)',
      };
    case 'aborted':
      return {
        state: 'failed',
        kind: 'provider',
        detail: prediction.error || 'aborted: its Cancel-After deadline passed before it started',
      };
    default:
      // A status newer than this adapter: keep waiting; the worker's deadline bounds the wait.
      return { state: 'running' };
  }
}

/** The output file's address: Veo's output is one URI string (tolerate a one-item array). */
export function outputUrl(prediction: Prediction): string | undefined {
  const { output } = prediction;
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.find((item): item is string => typeof item === 'string');
  return undefined;
}

/**
 * Replicate's error JSON: `{ detail }` (Django REST style), or the problem form `{ title,
 * detail, status, invalid_fields?: [{ type, field, description }] }` of input validation (422).
 * A 429 says "Request was throttled. Your rate limit resets in ~30s.": that wait is used when
 * no Retry-After header came. A refused input whose words are the safety filter's (422 or 400)
 * is content policy, not a bad request.
 */
export function parseReplicateError(status: number, text: string): ParsedError {
  let body: Json | undefined;
  try {
    body = objectOr(JSON.parse(text));
  } catch {
    body = undefined;
  }
  const detail = stringOr(body?.detail)?.trim();
  const title = stringOr(body?.title);
  const fields = Array.isArray(body?.invalid_fields)
    ? body.invalid_fields
        .map((item) => stringOr(objectOr(item)?.description))
        .filter((d): d is string => d !== undefined)
    : [];
  // A 422's `detail` already lists the invalid fields; the parts are the fallback.
  const message = detail || [title, ...fields].filter(Boolean).join(': ');
  const parsed: ParsedError = { message: message || text.trim().slice(0, 500) };
  if (status === 429) {
    const resets = /resets in ~?\s*(\d+(?:\.\d+)?)\s*s/i.exec(detail ?? text);
    if (resets) parsed.retryAfterMs = Math.round(Number(resets[1]) * 1000);
  }
  if ((status === 400 || status === 422) && isSafetyRefusal(parsed.message)) {
    parsed.kind = 'content_policy';
  }
  return parsed;
}
