/**
 * fal's queue API on the wire, for ../fal.ts: the submit body, the job id we store, the status and
 * result answers, and fal's two error formats (model errors: `{detail: [{loc, msg, type}]}` with
 * `X-Fal-Retryable`; infrastructure errors: `{detail: "...", error_type}`), turned into our kinds.
 */
import { VideoProviderError, type ProviderErrorKind } from '../errors.ts';
import type { ParsedError } from '../http.ts';
import { EXTEND_SECONDS } from '../../../../../shared/video-options.ts';
import { dataUri } from '../image.ts';
import type { VideoJobInput, VideoJobState } from '../types.ts';
import { parseVeoEndpoint } from './models.ts';

/** fal's queue API and webhook signing keys (the descriptor's defaults; tests use their fake). */
export const DEFAULT_FAL_QUEUE_URL = 'https://queue.fal.run';
export const DEFAULT_FAL_JWKS_URL = 'https://rest.alpha.fal.ai/.well-known/jwks.json';

/** Everything later calls need, stored as the job id (JSON, well under 2 KB). */
export interface FalJob {
  requestId: string;
  /** The endpoint id the job was submitted to (for logs; the URLs below are what we call). */
  model: string;
  statusUrl: string;
  responseUrl: string;
  cancelUrl: string;
}

/** fal-js `ENDPOINT_NAMESPACES`: ids under these carry one more segment before owner/alias. */
const NAMESPACES = new Set(['workflows', 'comfy']);

/** `owner/alias[/path...]`: plain segments only, so the id cannot climb out of the queue base. */
export const isEndpointId = (model: string): boolean =>
  /^[A-Za-z0-9][\w.-]*(\/[\w.-]+)+$/.test(model) &&
  !model.split('/').some((part) => part === '.' || part === '..');

/**
 * The request's own URLs as fal builds them: under `owner/alias` without the endpoint's sub-path
 * (fal-js queue.ts). Used only when the submit answer lacks a usable URL.
 */
export function derivedUrls(queueBase: string, model: string, requestId: string) {
  const parts = model.split('/');
  const app = parts.slice(0, NAMESPACES.has(parts[0] ?? '') ? 3 : 2).join('/');
  const base = `${queueBase}/${app}/requests/${encodeURIComponent(requestId)}`;
  return { statusUrl: `${base}/status`, responseUrl: base, cancelUrl: `${base}/cancel` };
}

/**
 * The Veo 3.1 input for an endpoint (fal-js `Veo31Input`, `Veo31ImageToVideoInput`,
 * `Veo31FirstLastFrameToVideoInput`, `Veo31ReferenceToVideoInput`, `Veo31ExtendVideoInput`): 8 s
 * (an extension: 7 s), with audio, in the options' shape and resolution; the negative prompt and
 * seed only when chosen, so the spec's clip sends exactly what it always did. Images and the
 * source video go inline as data URIs, which fal accepts wherever it takes a file URL, so no
 * upload step (and no second host) is involved.
 */
export function submitBody(input: VideoJobInput, endpoint: string): Record<string, unknown> {
  const { options } = input;
  const feature = parseVeoEndpoint(endpoint)?.feature ?? null;
  const body: Record<string, unknown> = { prompt: input.prompt };
  if (feature === 'first-last-frame-to-video') {
    if (input.image) body.first_frame_url = dataUri(input.image);
    if (input.lastFrame) body.last_frame_url = dataUri(input.lastFrame);
  } else if (feature === 'reference-to-video') {
    body.image_urls = (input.referenceImages ?? []).map(dataUri);
  } else if (feature === 'extend-video') {
    if (input.sourceVideo) body.video_url = dataUri(input.sourceVideo);
  } else if (input.mode === 'image' && input.image) {
    body.image_url = dataUri(input.image);
  }
  body.duration = feature === 'extend-video' ? `${EXTEND_SECONDS}s` : '8s';
  body.aspect_ratio = options.aspectRatio;
  body.resolution = options.resolution;
  body.generate_audio = true;
  if (options.negativePrompt) body.negative_prompt = options.negativePrompt;
  if (options.seed !== null) body.seed = options.seed;
  return body;
}

export const encodeJobId = (job: FalJob): string => JSON.stringify(job);

/**
 * Reads a stored job id back. The URLs must still be on the queue's origin: the key goes with
 * every call to them, so a job id that names another host (a corrupted or forged row) is refused.
 */
export function decodeJobId(jobId: string, queueOrigin: string): FalJob {
  let job: Partial<Record<keyof FalJob, unknown>> | null = null;
  try {
    job = JSON.parse(jobId) as typeof job;
  } catch {
    // Reported below.
  }
  const fields = ['requestId', 'model', 'statusUrl', 'responseUrl', 'cancelUrl'] as const;
  if (!job || typeof job !== 'object' || fields.some((f) => typeof job[f] !== 'string')) {
    throw new VideoProviderError(`fal: "${jobId.slice(0, 100)}" is not a fal job id`, {
      kind: 'rejected',
    });
  }
  const valid = job as FalJob;
  for (const url of [valid.statusUrl, valid.responseUrl, valid.cancelUrl]) {
    if (!onOrigin(url, queueOrigin)) {
      throw new VideoProviderError(`fal: job ${valid.requestId} names a URL off ${queueOrigin}`, {
        kind: 'rejected',
      });
    }
  }
  return valid;
}

export function onOrigin(url: unknown, origin: string): url is string {
  if (typeof url !== 'string') return false;
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

/** A status answer (`GET status_url`) as our job state; COMPLETED still needs the result. */
export function readStatus(answer: unknown): VideoJobState | 'completed' {
  const body = (answer ?? {}) as { status?: unknown; queue_position?: unknown };
  switch (body.status) {
    case 'IN_QUEUE': {
      const position = body.queue_position;
      return typeof position === 'number' && Number.isInteger(position) && position >= 0
        ? { state: 'queued', position }
        : { state: 'queued' };
    }
    case 'IN_PROGRESS':
      return { state: 'running' };
    case 'COMPLETED':
      return 'completed';
    default:
      // fal-js knows only the three above; anything else is a change we want to hear about,
      // and the worker polls again later rather than failing the task on it.
      throw new VideoProviderError(`fal poll: unknown status ${JSON.stringify(body.status)}`, {
        kind: 'unavailable',
      });
  }
}

/** The video in a result (`{video: {url, content_type, file_name, file_size, file_data?}}`). */
export function videoOf(answer: unknown): { url?: string; base64?: string } | null {
  const video = (answer as { video?: { url?: unknown; file_data?: unknown } } | null)?.video;
  if (typeof video?.url === 'string' && video.url !== '') return { url: video.url };
  if (typeof video?.file_data === 'string' && video.file_data !== '') {
    return { base64: video.file_data };
  }
  return null;
}

interface FalDetailItem {
  loc?: unknown;
  msg?: unknown;
  type?: unknown;
}

/** One line per problem: `type: msg (body.field)`; never the echoed `input` (it may be a whole image). */
function describeItems(items: FalDetailItem[]): string {
  return items
    .map((item) => {
      const loc = Array.isArray(item.loc) ? ` (${item.loc.join('.')})` : '';
      const type = typeof item.type === 'string' ? `${item.type}: ` : '';
      return `${type}${typeof item.msg === 'string' ? item.msg : JSON.stringify(item.msg)}${loc}`;
    })
    .join('; ');
}

/** The JSON in a text, or undefined (a proxy's HTML page, an empty body). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** What a fal error body says: its text, whether it is fal's own format, and content policy. */
function readFalError(text: string): {
  message: string;
  falFormat: boolean;
  contentPolicy: boolean;
} {
  const body = parseJson(text) as { detail?: unknown; error_type?: unknown; status?: unknown };
  if (body && typeof body === 'object') {
    if (Array.isArray(body.detail)) {
      const items = body.detail.filter(
        (item): item is FalDetailItem => typeof item === 'object' && item !== null,
      );
      return {
        message: describeItems(items),
        falFormat: true,
        contentPolicy: items.some((item) => item.type === 'content_policy_violation'),
      };
    }
    if (typeof body.detail === 'string') {
      const type = typeof body.error_type === 'string' ? `${body.error_type}: ` : '';
      return { message: `${type}${body.detail}`, falFormat: true, contentPolicy: false };
    }
    // Cancel answers carry only a status (`ALREADY_COMPLETED`, `NOT_FOUND`).
    if (typeof body.status === 'string') {
      return { message: body.status, falFormat: true, contentPolicy: false };
    }
  }
  return { message: text.trim().slice(0, 300), falFormat: false, contentPolicy: false };
}

/**
 * Which call an answer belongs to changes what a status means:
 * - `submit`: 404 is an endpoint fal does not have (a retired model id), a refusal, not `gone`.
 * - `queue`: status and cancel, where 404 is a request fal no longer knows (`gone`).
 * - `result`: a COMPLETED job's result. A body in fal's format is the job's own outcome (the
 *   model's 422, a runner's 500 after fal's retries), which refetching cannot change: it is
 *   marked `rejected` (or `content_policy`) so it is not retried, and ../fal.ts turns it into
 *   a failed job. Only answers not in fal's format (a proxy's 502) stay retryable.
 */
export type CallContext = 'submit' | 'queue' | 'result';

export function falErrorParser(context: CallContext) {
  return (status: number, text: string, headers: Headers): ParsedError => {
    const info = readFalError(text);
    // Docs disagree on the name (docs.fal.ai/errors: X-Fal-Retryable; fal.ai/docs/errors:
    // X-Fal-Needs-Retry); read either.
    const retryable = (
      headers.get('x-fal-retryable') ?? headers.get('x-fal-needs-retry')
    )?.toLowerCase();
    let kind: ProviderErrorKind | undefined;
    if (info.contentPolicy) kind = 'content_policy';
    else if (status === 401 || status === 403) kind = 'rejected';
    else if (status === 429) kind = undefined;
    else if (context === 'submit' && status === 404) kind = 'rejected';
    else if (context === 'result' && info.falFormat && status !== 404 && status !== 410) {
      kind = 'rejected';
    } else if (retryable === 'true' && status < 500) kind = 'unavailable';
    else if (retryable === 'false' && status >= 500) kind = 'rejected';
    return { message: info.message, ...(kind ? { kind } : {}) };
  };
}
