/**
 * Vertex AI Veo JSON, both ways, in one place: the `predictLongRunning` body, operation names,
 * the operations `fetchPredictOperation` answers, and google.rpc.Status error bodies.
 * Field names follow the Veo model reference and @google/genai's Vertex converters (see the
 * header of ../vertex.ts for versions).
 */
import { EXTEND_SECONDS } from '../../../../../shared/video-options.ts';
import type { ProviderErrorKind } from '../errors.ts';
import { durationMs, type ParsedError } from '../http.ts';
import type { VideoJobInput } from '../types.ts';

/** Cloud Storage's JSON API, videos written to a bucket are read through it (the descriptor's default). */
export const DEFAULT_STORAGE_URL = 'https://storage.googleapis.com';

/**
 * What Vertex names an operation of a publisher model. The parts are checked tightly because
 * they are put back into URLs (a job id comes from our database, but never trust it into a path).
 */
const OPERATION_NAME =
  /^projects\/([A-Za-z0-9._-]+)\/locations\/([a-z0-9-]+)\/publishers\/google\/models\/([a-z0-9][a-z0-9.-]*)\/operations\/([A-Za-z0-9_-]+)$/;

export interface OperationRef {
  name: string;
  project: string;
  location: string;
  model: string;
}

export function parseOperationName(name: unknown): OperationRef | null {
  if (typeof name !== 'string') return null;
  const match = OPERATION_NAME.exec(name);
  if (!match) return null;
  return { name, project: match[1] ?? '', location: match[2] ?? '', model: match[3] ?? '' };
}

/** The model path both calls share: `projects/{p}/locations/{l}/publishers/google/models/{m}`. */
export const modelPath = (project: string, location: string, model: string): string =>
  `projects/${encodeURIComponent(project)}/locations/${encodeURIComponent(location)}` +
  `/publishers/google/models/${encodeURIComponent(model)}`;

const inline = (media: { data: Buffer; mimeType: string }) => ({
  bytesBase64Encoded: media.data.toString('base64'),
  mimeType: media.mimeType,
});

/**
 * The body of `:predictLongRunning`. Veo 3.x on Vertex requires `durationSeconds` and
 * `generateAudio`; `durationSeconds` goes as a JSON number (the SDK types it so): 8, or for an
 * extension the 7 s it adds. `sampleCount: 1` because we bill one video. The options go in their
 * own fields; the negative prompt and seed only when chosen, so the spec's clip sends exactly
 * what it always did. Images and the source video go inline as base64. Without `storageUri`
 * the video comes back inline as base64 too.
 */
export function predictBody(input: VideoJobInput, storageUri: string | undefined): unknown {
  const { options } = input;
  const instance: Record<string, unknown> = { prompt: input.prompt };
  if (options.extend && input.sourceVideo) instance.video = inline(input.sourceVideo);
  else if (input.image) instance.image = inline(input.image);
  if (input.lastFrame) instance.lastFrame = inline(input.lastFrame);
  if (input.referenceImages?.length) {
    instance.referenceImages = input.referenceImages.map((image) => ({
      image: inline(image),
      referenceType: 'asset',
    }));
  }
  return {
    instances: [instance],
    parameters: {
      durationSeconds: options.extend ? EXTEND_SECONDS : 8,
      aspectRatio: options.aspectRatio,
      generateAudio: true,
      resolution: options.resolution,
      sampleCount: 1,
      ...(options.negativePrompt ? { negativePrompt: options.negativePrompt } : {}),
      ...(options.seed !== null ? { seed: options.seed } : {}),
      ...(storageUri ? { storageUri } : {}),
    },
  };
}

/**
 * How Google words a safety refusal (Veo "Responsible AI and usage guidelines" page): "Veo could
 * not generate videos because the input image violates Vertex AI's usage guidelines. ... Support
 * codes: 15236754", "The prompt couldn't be submitted", "it might violate our policies".
 */
const CONTENT_POLICY =
  /usage guidelines|responsible ai|(?:could ?not|couldn't) be submitted|might violate our policies|support codes?:\s*\d/i;

const isContentPolicyText = (text: string): boolean => CONTENT_POLICY.test(text);

export type OperationOutcome =
  | { state: 'running' }
  | { state: 'failed'; kind: 'content_policy' | 'provider'; detail: string }
  | { state: 'succeeded'; video: { base64: string } | { gcsUri: string } };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A google.rpc.Status as one line: `message` (with the status name when Google gave one). */
function statusText(status: Record<string, unknown>): string {
  const message = typeof status.message === 'string' ? status.message.trim() : '';
  const code = typeof status.code === 'number' ? `code ${status.code}` : '';
  return message || code || JSON.stringify(status).slice(0, 500);
}

/**
 * Reads an operation from `fetchPredictOperation`; null when the answer is not one. A finished
 * operation holds either `error` (google.rpc.Status) or `response` with `videos[]` (each a
 * `gcsUri` or `bytesBase64Encoded`) and, when the safety filter removed videos,
 * `raiMediaFilteredCount` / `raiMediaFilteredReasons`.
 */
export function parseOperation(value: unknown): { name: string; outcome: OperationOutcome } | null {
  if (!isObject(value) || typeof value.name !== 'string') return null;
  const { name } = value;
  // proto3 JSON leaves `done: false` out, so anything but true is still running.
  if (value.done !== true) return { name, outcome: { state: 'running' } };

  if (isObject(value.error)) {
    const detail = statusText(value.error);
    const kind = isContentPolicyText(detail) ? 'content_policy' : 'provider';
    return { name, outcome: { state: 'failed', kind, detail } };
  }

  const response = isObject(value.response) ? value.response : {};
  const videos = Array.isArray(response.videos) ? response.videos.filter(isObject) : [];
  for (const video of videos) {
    if (typeof video.bytesBase64Encoded === 'string' && video.bytesBase64Encoded !== '') {
      return { name, outcome: { state: 'succeeded', video: { base64: video.bytesBase64Encoded } } };
    }
    if (typeof video.gcsUri === 'string' && video.gcsUri !== '') {
      return { name, outcome: { state: 'succeeded', video: { gcsUri: video.gcsUri } } };
    }
  }

  const filtered =
    typeof response.raiMediaFilteredCount === 'number' ? response.raiMediaFilteredCount : 0;
  if (filtered > 0) {
    const reasons = Array.isArray(response.raiMediaFilteredReasons)
      ? response.raiMediaFilteredReasons.filter((r): r is string => typeof r === 'string')
      : [];
    const detail =
      reasons.join('; ') || `${filtered} video(s) removed by Vertex AI's safety filter`;
    return { name, outcome: { state: 'failed', kind: 'content_policy', detail } };
  }
  return {
    name,
    outcome: {
      state: 'failed',
      kind: 'provider',
      detail: 'the operation finished without a video',
    },
  };
}

/** `gs://bucket/path/to/object` → its parts, or null. */
export function parseGcsUri(uri: string): { bucket: string; object: string } | null {
  const match = /^gs:\/\/([a-z0-9][a-z0-9._-]*)\/(.+)$/.exec(uri);
  return match ? { bucket: match[1] ?? '', object: match[2] ?? '' } : null;
}

const RETRY_INFO = 'type.googleapis.com/google.rpc.RetryInfo';

/**
 * A non-2xx answer of Vertex AI or Cloud Storage (`{"error":{"code","message","status",
 * "details"}}`) as http.ts needs it. RESOURCE_EXHAUSTED is a rate limit whatever the HTTP code,
 * with the wait from a google.rpc.RetryInfo detail; a 400 whose text is a safety refusal is
 * content_policy; `notFound` overrides what a 404 means (on submit: an unknown model, rejected).
 */
export function parseGoogleError(
  status: number,
  text: string,
  opts: { notFound?: ProviderErrorKind } = {},
): ParsedError {
  let error: Record<string, unknown> = {};
  try {
    const body: unknown = JSON.parse(text);
    if (isObject(body) && isObject(body.error)) error = body.error;
  } catch {
    // Not JSON (a proxy's HTML page): http.ts falls back to the raw text and the status.
  }
  const rpcStatus = typeof error.status === 'string' ? error.status : '';
  const message = typeof error.message === 'string' ? error.message : '';
  const details = Array.isArray(error.details) ? error.details.filter(isObject) : [];
  const retryInfo = details.find((d) => d['@type'] === RETRY_INFO);
  const parsed: ParsedError = {
    message: rpcStatus && message ? `${rpcStatus}: ${message}` : message,
    retryAfterMs: durationMs(retryInfo?.retryDelay),
  };
  if (rpcStatus === 'RESOURCE_EXHAUSTED' || status === 429) parsed.kind = 'rate_limited';
  else if (status === 400 && isContentPolicyText(message)) parsed.kind = 'content_policy';
  else if (status === 404 && opts.notFound) parsed.kind = opts.notFound;
  return parsed;
}
