/**
 * The Gemini fake's check of a `POST /v1beta/interactions` body for an Omni model, strict as the
 * API is: unknown fields, wrong JSON types and values outside the enums are 400 INVALID_ARGUMENT
 * in Google's words. Field names and enums are those of @google/genai 3.3.0 (CreateModelInteraction,
 * VideoResponseFormat, VideoConfig, ImageContent); durations are google.protobuf.Duration strings.
 */

export interface CreateRequest {
  model: string;
  prompt: string;
  /** The first frame (image_to_video), or the first reference image. */
  image?: { data: Buffer; mimeType: string };
  /** How many images came (reference_to_video: one to three). */
  imageCount: number;
  delivery: 'inline' | 'uri';
  background: boolean;
  /** The video the interaction makes, as response_format asked (defaults: 16:9, 720p, 8 s). */
  shape: FakeVideoShape;
}

import type { FakeVideoShape } from '../video/shape.ts';

type Json = Record<string, unknown>;
type Result = { ok: CreateRequest } | { problem: string };

/** Fields an Omni interaction takes (the rest of CreateModelInteraction is refused below). */
const TOP_LEVEL = new Set([
  'model',
  'input',
  'background',
  'store',
  'response_format',
  'response_modalities',
  'generation_config',
  'previous_interaction_id',
  'labels',
  'service_tier',
  'webhook_config',
]);
/** Fields the SDK knows but Omni refuses (no system instructions, tools, structured output). */
const NOT_FOR_OMNI = new Set([
  'system_instruction',
  'tools',
  'safety_settings',
  'response_mime_type',
  'cached_content',
  'continuation_token',
  'environment',
  'stream',
  'agent',
  'agent_config',
]);
const GENERATION_CONFIG_NOT_FOR_OMNI = new Set([
  'image_config',
  'max_output_tokens',
  'speech_config',
  'stop_sequences',
  'temperature',
  'thinking_level',
  'thinking_summaries',
  'tool_choice',
  'top_p',
  'transcription_config',
]);
const TASKS = new Set([
  'text_to_video',
  'image_to_video',
  'reference_to_video',
  'edit',
  'extend',
  'upscale',
]);
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp']);
const RESOLUTIONS = new Set(['360p', '720p', '1080p', '4k']);
/** Longest clip per model (1.2: 3–15 s; 1.1: 3–10 s). */
export const MAX_SECONDS: Record<string, number> = {
  'gemini-omni-1.2-flash': 15,
  'gemini-omni-1.1-flash': 10,
};

const objectOr = (v: unknown): Json | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
const show = (v: unknown) => JSON.stringify(v) ?? String(v);
const unknownName = (name: string, at?: string) =>
  `Invalid JSON payload received. Unknown name "${name}"${at ? ` at '${at}'` : ''}: Cannot find field.`;
const badValue = (at: string, type: string, v: unknown) =>
  `Invalid value at '${at}' (${type}), ${show(v)}`;
const isBase64 = (s: string) => s !== '' && s.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(s);

/** Every key of `obj` must be in `allowed`; the first other one is Google's "Unknown name". */
function unknownKey(obj: Json, allowed: readonly string[], at: string): string | null {
  const extra = Object.keys(obj).find((k) => !allowed.includes(k));
  return extra === undefined ? null : unknownName(extra, at);
}

type Image = NonNullable<CreateRequest['image']>;

function parseInput(input: unknown): { prompt: string; images: Image[] } | string {
  if (typeof input === 'string') {
    return input.trim() === '' ? 'input must not be empty.' : { prompt: input, images: [] };
  }
  if (!Array.isArray(input) || input.length === 0) return badValue('input', 'TYPE_MESSAGE', input);
  const texts: string[] = [];
  const images: Image[] = [];
  for (const [i, raw] of input.entries()) {
    const at = `input[${i}]`;
    const block = objectOr(raw);
    if (!block) return badValue(at, 'TYPE_MESSAGE', raw);
    if (block.type === 'text') {
      const problem = unknownKey(block, ['type', 'text'], at);
      if (problem) return problem;
      if (typeof block.text !== 'string') return badValue(`${at}.text`, 'TYPE_STRING', block.text);
      texts.push(block.text);
    } else if (block.type === 'image') {
      const problem = unknownKey(block, ['type', 'data', 'uri', 'mime_type', 'resolution'], at);
      if (problem) return problem;
      if (block.uri !== undefined)
        return `${at}.uri: only inline image data is supported by this fake.`;
      if (typeof block.data !== 'string' || !isBase64(block.data)) {
        return `${at}.data: Base64 decoding failed for ${show(String(block.data).slice(0, 20))}.`;
      }
      if (typeof block.mime_type !== 'string' || !IMAGE_TYPES.has(block.mime_type)) {
        return `Unsupported MIME type: ${String(block.mime_type)}`;
      }
      images.push({ data: Buffer.from(block.data, 'base64'), mimeType: block.mime_type });
    } else {
      return badValue(`${at}.type`, 'TYPE_ENUM', block.type);
    }
  }
  const prompt = texts.join('\n');
  if (prompt.trim() === '') return 'A text prompt is required to generate a video.';
  return { prompt, images };
}

function checkResponseFormat(format: Json, model: string): string | null {
  const at = 'response_format';
  const problem = unknownKey(
    format,
    ['type', 'aspect_ratio', 'duration', 'resolution', 'delivery', 'gcs_uri'],
    at,
  );
  if (problem) return problem;
  if (format.type !== 'video') return `${at}.type must be "video" for model ${model}.`;
  if (format.gcs_uri !== undefined) return `${at}.gcs_uri is not supported in the Gemini API.`;
  if (
    format.aspect_ratio !== undefined &&
    format.aspect_ratio !== '16:9' &&
    format.aspect_ratio !== '9:16'
  ) {
    return badValue(`${at}.aspect_ratio`, 'TYPE_ENUM', format.aspect_ratio);
  }
  if (format.resolution !== undefined && !RESOLUTIONS.has(String(format.resolution))) {
    return badValue(`${at}.resolution`, 'TYPE_ENUM', format.resolution);
  }
  if (format.delivery !== undefined && format.delivery !== 'inline' && format.delivery !== 'uri') {
    return badValue(`${at}.delivery`, 'TYPE_ENUM', format.delivery);
  }
  if (format.duration !== undefined) {
    const type = 'type.googleapis.com/google.protobuf.Duration';
    if (typeof format.duration !== 'string')
      return badValue(`${at}.duration`, type, format.duration);
    const match = /^(\d+(?:\.\d+)?)s$/.exec(format.duration);
    if (!match)
      return `${badValue(`${at}.duration`, type, format.duration)}: Illegal duration format; duration must end with 's'`;
    const seconds = Number(match[1]);
    const max = MAX_SECONDS[model] ?? 10;
    if (seconds < 3 || seconds > max)
      return `${at}.duration must be between 3s and ${max}s for ${model}, got ${format.duration}.`;
  }
  return null;
}

const INT32 = 2 ** 31;

/** What each task takes: image_to_video one image, reference_to_video one to three, text none. */
function taskProblem(task: unknown, images: number): string | null {
  if (task === 'reference_to_video') {
    return images >= 1 && images <= 3
      ? null
      : `Task reference_to_video takes 1 to 3 reference images, got ${images}.`;
  }
  if (images > 1) return 'Only one input image is supported for image_to_video.';
  if (task === undefined) return null;
  if (task === 'image_to_video' && images === 0)
    return 'Task image_to_video requires an input image.';
  if (task === 'text_to_video' && images > 0)
    return 'Task text_to_video does not take input images.';
  if (task !== 'image_to_video' && task !== 'text_to_video') {
    return `Task ${String(task)} requires reference media that this request does not contain.`;
  }
  return null;
}

function checkGenerationConfig(config: unknown, images: number): string | null {
  const at = 'generation_config';
  const c = objectOr(config);
  if (!c) return badValue(at, 'TYPE_MESSAGE', config);
  for (const key of Object.keys(c)) {
    if (GENERATION_CONFIG_NOT_FOR_OMNI.has(key))
      return `${at}.${key} is not supported for video generation.`;
    if (key !== 'video_config' && key !== 'seed') return unknownName(key, at);
  }
  // A protobuf int32: Google refuses anything outside it.
  if (
    c.seed !== undefined &&
    !(Number.isInteger(c.seed) && (c.seed as number) >= -INT32 && (c.seed as number) < INT32)
  )
    return badValue(`${at}.seed`, 'TYPE_INT32', c.seed);
  if (c.video_config === undefined) return taskProblem(undefined, images);
  const video = objectOr(c.video_config);
  if (!video) return badValue(`${at}.video_config`, 'TYPE_MESSAGE', c.video_config);
  const problem = unknownKey(video, ['task'], `${at}.video_config`);
  if (problem) return problem;
  if (video.task !== undefined && (typeof video.task !== 'string' || !TASKS.has(video.task))) {
    return badValue(`${at}.video_config.task`, 'TYPE_ENUM', video.task);
  }
  return taskProblem(video.task, images);
}

/** The body's meaning, or Google's INVALID_ARGUMENT text. `model` must be checked as known first. */
export function parseCreateBody(body: unknown): Result {
  const b = objectOr(body);
  if (!b) return { problem: 'Invalid JSON payload received. Expected an object.' };
  for (const key of Object.keys(b)) {
    if (NOT_FOR_OMNI.has(key))
      return { problem: `${key} is not supported for model ${String(b.model)}.` };
    if (!TOP_LEVEL.has(key)) return { problem: unknownName(key) };
  }
  if (typeof b.model !== 'string') return { problem: badValue('model', 'TYPE_STRING', b.model) };
  for (const key of ['background', 'store'] as const) {
    if (b[key] !== undefined && typeof b[key] !== 'boolean')
      return { problem: badValue(key, 'TYPE_BOOL', b[key]) };
  }
  const input = parseInput(b.input);
  if (typeof input === 'string') return { problem: input };

  let delivery: CreateRequest['delivery'] = 'inline';
  const shape: FakeVideoShape = { aspectRatio: '16:9', resolution: '720p', seconds: 8 };
  if (b.response_format !== undefined) {
    const formats = Array.isArray(b.response_format) ? b.response_format : [b.response_format];
    const video = formats.map(objectOr);
    if (video.length !== 1 || !video[0])
      return { problem: badValue('response_format', 'TYPE_MESSAGE', b.response_format) };
    const format = video[0];
    const problem = checkResponseFormat(format, b.model);
    if (problem) return { problem };
    if (format.delivery === 'uri') delivery = 'uri';
    if (format.aspect_ratio === '9:16') shape.aspectRatio = '9:16';
    if (format.resolution === '1080p') shape.resolution = '1080p';
    if (typeof format.duration === 'string') shape.seconds = Number.parseFloat(format.duration);
  }
  const problem =
    b.generation_config === undefined
      ? taskProblem(undefined, input.images.length)
      : checkGenerationConfig(b.generation_config, input.images.length);
  if (problem) return { problem };
  const [image] = input.images;
  return {
    ok: {
      model: b.model,
      prompt: input.prompt,
      ...(image ? { image } : {}),
      imageCount: input.images.length,
      delivery,
      background: b.background === true,
      shape,
    },
  };
}
