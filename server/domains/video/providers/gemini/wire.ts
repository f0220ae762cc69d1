/**
 * The Interactions API's wire format for Gemini Omni video, in one place: the create body we send,
 * the reading of an interaction into our job states, and the reading of Google's error JSON. The
 * adapter (../gemini.ts) never touches raw JSON. Field names are those of @google/genai 3.3.0
 * (`dist/genai.d.ts`: CreateModelInteraction, VideoResponseFormat, VideoConfig, Interaction,
 * ModelOutputStep, VideoContent, ErrorT) and of js-genai's generated `src/gaos/models/interactions`.
 *
 * An interaction: `{ id, status, steps?: [...], errors?: [{ code, message }], usage? }`, status one
 * of queued | in_progress | requires_action | completed | failed | cancelled | incomplete |
 * budget_exceeded | requires_continuation. The video is a `{ type: 'video', mime_type, data | uri }`
 * block in the `content` of a `model_output` step after the last `user_input` step (the SDK's own
 * `output_video` helper searches exactly there); a step that failed carries `error`
 * (google.rpc.Status).
 *
 * Safety refusals: the SDK declares no finish or block reason on an interaction (its `BlockReason`
 * — safety, prohibited_content, blocklist, image_safety — exists only in `prompt_feedback` of other
 * calls), so we read every place Google puts a reason or message: the step `error`, the
 * interaction's `errors[]`, and the model's own text when it finished without a video. A refusal
 * counts as content policy when a code or reason is one of those tokens, or the text says the
 * request was blocked for safety (Google's wording seen through fal: "Request blocked due to
 * safety violations (harmful content)"). Anything else is a provider failure.
 */
import { durationMs, type ParsedError } from '../http.ts';
import type { VideoJobInput, VideoJobState } from '../types.ts';
import { arrayOr, objectOr, stringOr, type Json } from '../json.ts';
import { int32Seed } from './models.ts';

/** The Gemini API (the descriptor's default; tests use their fake). */
export const DEFAULT_GEMINI_API_BASE = 'https://generativelanguage.googleapis.com';

/**
 * What a job asks for: one 8-second clip in the options' shape and resolution (the product
 * sells exactly that). `duration` is a google.protobuf.Duration in its JSON form ("8s"): the SDK
 * types it as a string and a bare number is refused. `delivery: 'uri'`: the finished interaction
 * then carries a Files API address instead of the whole MP4 as base64, so every poll (and the
 * re-read before the download) stays a few hundred bytes, and the video streams to disk instead
 * of through memory twice (text, then bytes). Inline `data` is still read if Google sends it.
 */
const RESPONSE_FORMAT = { type: 'video', duration: '8s', delivery: 'uri' } as const;

const imageBlock = (image: { data: Buffer; mimeType: string }) => ({
  type: 'image',
  data: image.data.toString('base64'),
  mime_type: image.mimeType,
});

/**
 * The `POST /v1beta/interactions` body for one job: the prompt alone, or with its first frame
 * (`image_to_video`) or its reference images (`reference_to_video`); the seed only when chosen.
 */
export function createInteractionBody(input: VideoJobInput): Json {
  const { options } = input;
  const images = input.referenceImages?.length
    ? input.referenceImages
    : input.image
      ? [input.image]
      : [];
  const task = input.referenceImages?.length
    ? 'reference_to_video'
    : input.image
      ? 'image_to_video'
      : 'text_to_video';
  return {
    model: input.model,
    input: images.length
      ? [{ type: 'text', text: input.prompt }, ...images.map(imageBlock)]
      : input.prompt,
    // Without it the POST is held open for the whole generation (minutes).
    background: true,
    response_format: {
      type: RESPONSE_FORMAT.type,
      aspect_ratio: options.aspectRatio,
      duration: RESPONSE_FORMAT.duration,
      resolution: options.resolution,
      delivery: RESPONSE_FORMAT.delivery,
    },
    generation_config: {
      video_config: { task },
      ...(options.seed !== null ? { seed: int32Seed(options.seed) } : {}),
    },
  };
}

/** Where the finished video is: base64 in the answer, or an address to download. */
type VideoOutput = { data: string } | { uri: string };

export interface Interaction {
  id: string | null;
  state: VideoJobState;
  /** The video block, when the interaction completed with one. */
  video: VideoOutput | null;
}

const SAFETY_TOKEN =
  /^(?:[\w.:/-]*[/.:])?(?:image_)?(?:safety|prohibited_content|blocklist|spii|content_policy|responsible_ai|rai)$/i;
const SAFETY_PHRASE =
  /\bblocked\b[^.]*\b(?:safety|polic(?:y|ies)|guidelines)\b|\bsafety (?:violations?|filters?|reasons)\b|\bviolat\w*\b[^.]*\bguidelines\b/i;

/** What one failure says: Google's messages joined, and whether any of it reads as a safety block. */
interface Reason {
  text: string;
  safety: boolean;
}

/** The codes and messages of a google.rpc.Status or an interaction ErrorT, with its ErrorInfo reasons. */
function reasonOf(error: unknown): Reason | null {
  const e = objectOr(error);
  if (!e) return null;
  const message = stringOr(e.message) ?? '';
  const tokens = [stringOr(e.status), stringOr(e.code), stringOr(e.reason)];
  for (const detail of arrayOr(e.details).map(objectOr)) tokens.push(stringOr(detail?.reason));
  const safety =
    tokens.some((t) => t !== undefined && SAFETY_TOKEN.test(t)) || SAFETY_PHRASE.test(message);
  const code = typeof e.code === 'number' ? String(e.code) : stringOr(e.code);
  const text = message || (code ? `error code ${code}` : '');
  return text ? { text, safety } : null;
}

function joinReasons(reasons: (Reason | null)[], fallback: string): Reason {
  const found = reasons.filter((r): r is Reason => r !== null);
  return {
    text: [...new Set(found.map((r) => r.text))].join('; ') || fallback,
    safety: found.some((r) => r.safety),
  };
}

/** The steps Google ran for the last request: everything after the last `user_input` step. */
function outputSteps(interaction: Json): Json[] {
  const steps = arrayOr(interaction.steps)
    .map(objectOr)
    .filter((s): s is Json => s !== undefined);
  let start = 0;
  steps.forEach((step, i) => {
    if (step.type === 'user_input') start = i + 1;
  });
  return steps.slice(start).filter((step) => step.type === 'model_output');
}

function videoOf(steps: Json[]): VideoOutput | null {
  for (const step of [...steps].reverse()) {
    for (const block of arrayOr(step.content).map(objectOr).reverse()) {
      if (block?.type !== 'video') continue;
      const data = stringOr(block.data);
      if (data) return { data };
      const uri = stringOr(block.uri);
      if (uri) return { uri };
    }
  }
  return null;
}

function failedWith(reason: Reason): VideoJobState {
  return {
    state: 'failed',
    kind: reason.safety ? 'content_policy' : 'provider',
    detail: reason.text,
  };
}

/** Why an interaction ended without a video, from everything it says. */
function reasonWithoutVideo(interaction: Json, steps: Json[], fallback: string): Reason {
  const texts = steps.flatMap((step) =>
    arrayOr(step.content)
      .map(objectOr)
      .filter((block) => block?.type === 'text')
      .map((block) => stringOr(block?.text)?.trim() ?? '')
      .filter((text) => text !== '')
      .map((text) => ({ text, safety: SAFETY_PHRASE.test(text) })),
  );
  return joinReasons(
    [
      ...steps.map((step) => reasonOf(step.error)),
      ...arrayOr(interaction.errors).map(reasonOf),
      reasonOf(interaction.error),
      ...texts,
    ],
    fallback,
  );
}

function stateOf(interaction: Json, steps: Json[], video: VideoOutput | null): VideoJobState {
  const status = stringOr(interaction.status) ?? '';
  switch (status) {
    case 'queued':
      return { state: 'queued' };
    // requires_continuation: decoding paused and resumable by Google, still ours to wait for.
    case 'in_progress':
    case 'requires_continuation':
      return { state: 'running' };
    case 'completed':
      if (video) return { state: 'succeeded' };
      // A refusal can finish "completed" with only the model's text and no video.
      return failedWith(
        reasonWithoutVideo(interaction, steps, 'The interaction completed without a video.'),
      );
    case 'failed':
    case 'incomplete':
    case 'cancelled':
    case 'budget_exceeded':
    case 'requires_action':
      return failedWith(reasonWithoutVideo(interaction, steps, `The interaction is ${status}.`));
    default:
      // A status this code does not know yet: keep polling; the worker's deadline bounds it.
      return { state: 'running' };
  }
}

/** An interaction answer, typed; null when the JSON is not an object at all. */
export function parseInteraction(json: unknown): Interaction | null {
  const interaction = objectOr(json);
  if (!interaction) return null;
  const steps = outputSteps(interaction);
  const video = interaction.status === 'completed' ? videoOf(steps) : null;
  const id = stringOr(interaction.id);
  return { id: id || null, state: stateOf(interaction, steps, video), video };
}

/**
 * Google's error JSON (`{ error: { code, message, status, details } }`, sometimes wrapped in an
 * array by the front end) as http.ts needs it: the message, a wait from google.rpc.RetryInfo,
 * and a kind where the status code alone would mislead (a quota 400, a safety 400).
 */
export function parseGoogleError(status: number, text: string): ParsedError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // Storage hosts answer XML or nothing: the status line is all there is.
    return { message: text.trim().slice(0, 500) };
  }
  const error = objectOr(objectOr(Array.isArray(body) ? body[0] : body)?.error);
  if (!error) return { message: text.trim().slice(0, 500) };
  let retryAfterMs: number | null = null;
  for (const detail of arrayOr(error.details).map(objectOr)) {
    if (stringOr(detail?.['@type'])?.endsWith('google.rpc.RetryInfo')) {
      retryAfterMs = durationMs(detail?.retryDelay);
      if (retryAfterMs !== null) break;
    }
  }
  const reason = reasonOf(error);
  const message = reason?.text ?? '';
  const rpcStatus = stringOr(error.status);
  if (rpcStatus === 'RESOURCE_EXHAUSTED') return { message, kind: 'rate_limited', retryAfterMs };
  if (status < 500 && reason?.safety) return { message, kind: 'content_policy' };
  return { message, retryAfterMs };
}
