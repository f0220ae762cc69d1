/**
 * The fal fake's check of a Veo 3.1 input, in the words fal's (pydantic v2) validation uses:
 * `{loc: ['body', field], msg, type, input, ctx?}`. Fields and values follow fal-js
 * `Veo31Input`, `Veo31ImageToVideoInput`, `Veo31LiteInput` (Lite has no 4k; only the
 * image-to-video endpoints take `image_url`, and there `aspect_ratio` may also be "auto"),
 * `Veo31FirstLastFrameToVideoInput` (`first_frame_url`, `last_frame_url`),
 * `Veo31ReferenceToVideoInput` (`image_urls`; no negative prompt, no seed) and
 * `Veo31ExtendVideoInput` (`video_url`, 7 s, 720p or 1080p).
 *
 * Stricter than fal in one way: unknown fields are refused (`extra_forbidden`), where fal's
 * models may silently ignore them, so an adapter that sends `image_url` to a text endpoint (or a
 * misspelt field) is caught here rather than in production.
 */

export interface FalDetail {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
  url?: string;
}

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp']);

/** pydantic's wording for a literal: "Input should be 'a', 'b' or 'c'". */
function literal(values: string[]) {
  const quoted = values.map((v) => `'${v}'`);
  const expected =
    quoted.length === 1
      ? (quoted[0] ?? '')
      : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
  return (field: string, value: unknown): FalDetail | null =>
    typeof value === 'string' && values.includes(value)
      ? null
      : {
          loc: ['body', field],
          msg: `Input should be ${expected}`,
          type: 'literal_error',
          input: value,
          ctx: { expected },
        };
}

const typed =
  (check: (v: unknown) => boolean, type: string, msg: string) =>
  (field: string, value: unknown): FalDetail | null =>
    check(value) ? null : { loc: ['body', field], msg, type, input: value };

const isString = typed(
  (v) => typeof v === 'string',
  'string_type',
  'Input should be a valid string',
);
const isBool = typed((v) => typeof v === 'boolean', 'bool_type', 'Input should be a valid boolean');
const isInt = typed((v) => Number.isInteger(v), 'int_type', 'Input should be a valid integer');

/** What fal makes of an image URL field that is a data URI: the type and bytes, or the problem. */
export function readImage(
  value: unknown,
  loc: (string | number)[] = ['body', 'image_url'],
): { form: string; mimeType: string; bytes: number } | FalDetail {
  const problem = (msg: string): FalDetail => ({
    loc,
    msg,
    type: 'image_load_error',
    url: 'https://docs.fal.ai/errors#image_load_error',
  });
  if (typeof value !== 'string') return problem('Input should be a valid string');
  if (/^https?:\/\//.test(value)) return { form: 'url', mimeType: 'unknown', bytes: 0 };
  const match = /^data:([^;,]+);base64,([A-Za-z0-9+/]*={0,2})$/.exec(value);
  if (!match) return problem('Failed to load the image. Please ensure the image file is valid.');
  const [, mimeType = '', base64 = ''] = match;
  const bytes = Buffer.from(base64, 'base64');
  if (!IMAGE_TYPES.has(mimeType) || bytes.length === 0 || base64.length % 4 !== 0) {
    return problem(`Unsupported or empty image (${mimeType}).`);
  }
  return { form: 'data-uri', mimeType, bytes: bytes.length };
}

/** A `video_url` data URI's MP4 bytes, or the problem (fal's `video_load_error`). */
export function readVideo(value: unknown): Buffer | FalDetail {
  const problem = (msg: string): FalDetail => ({
    loc: ['body', 'video_url'],
    msg,
    type: 'video_load_error',
    url: 'https://docs.fal.ai/errors#video_load_error',
  });
  const match =
    typeof value === 'string'
      ? /^data:video\/mp4;base64,([A-Za-z0-9+/]*={0,2})$/.exec(value)
      : null;
  const bytes = Buffer.from(match?.[1] ?? '', 'base64');
  if (!match || bytes.length === 0 || bytes.indexOf('ftyp') !== 4) {
    return problem('Failed to load the video. Please ensure the video file is a valid MP4.');
  }
  return bytes;
}

const image = (field: string, value: unknown) => {
  const read = readImage(value, ['body', field]);
  return 'loc' in read ? read : null;
};

/** `image_urls`: one to three images (Veo 3.1 takes up to three references). */
function imageList(field: string, value: unknown): FalDetail | null {
  if (!Array.isArray(value)) {
    return {
      loc: ['body', field],
      msg: 'Input should be a valid list',
      type: 'list_type',
      input: value,
    };
  }
  if (value.length < 1 || value.length > 3) {
    return {
      loc: ['body', field],
      msg: `List should have ${value.length < 1 ? 'at least 1 item' : 'at most 3 items'} after validation, not ${value.length}`,
      type: value.length < 1 ? 'too_short' : 'too_long',
      input: value,
    };
  }
  for (const [i, item] of value.entries()) {
    const read = readImage(item, ['body', field, i]);
    if ('loc' in read) return read;
  }
  return null;
}

type Check = (field: string, value: unknown) => FalDetail | null;

/** The endpoint's kind: its last path part when it names a feature, else text-to-video. */
export function endpointKind(endpoint: string) {
  const last = endpoint.split('/').pop() ?? '';
  const kinds = [
    'image-to-video',
    'first-last-frame-to-video',
    'reference-to-video',
    'extend-video',
  ];
  return kinds.includes(last) ? last : 'text-to-video';
}

/** Each endpoint's fields (fal-js input types) and the ones it requires besides `prompt`. */
function fieldsOf(endpoint: string): { fields: Record<string, Check>; required: string[] } {
  const kind = endpointKind(endpoint);
  const lite = endpoint.startsWith('fal-ai/veo3.1/lite');
  const common: Record<string, Check> = {
    prompt: isString,
    aspect_ratio: literal(
      kind === 'text-to-video' || kind === 'reference-to-video'
        ? ['16:9', '9:16']
        : ['auto', '16:9', '9:16'],
    ),
    duration: literal(['4s', '6s', '8s']),
    resolution: literal(lite ? ['720p', '1080p'] : ['720p', '1080p', '4k']),
    generate_audio: isBool,
    auto_fix: isBool,
    negative_prompt: isString,
    safety_tolerance: literal(['1', '2', '3', '4', '5', '6']),
    seed: isInt,
  };
  switch (kind) {
    case 'image-to-video':
      return { fields: { ...common, image_url: image }, required: ['image_url'] };
    case 'first-last-frame-to-video':
      return {
        fields: { ...common, first_frame_url: image, last_frame_url: image },
        required: ['first_frame_url', 'last_frame_url'],
      };
    case 'reference-to-video': {
      const { negative_prompt: _n, seed: _s, ...rest } = common;
      return {
        fields: { ...rest, duration: literal(['8s']), image_urls: imageList },
        required: ['image_urls'],
      };
    }
    case 'extend-video':
      return {
        fields: {
          ...common,
          duration: literal(['7s']),
          resolution: literal(['720p', '1080p']),
          video_url: (_field, value) => {
            const read = readVideo(value);
            return Buffer.isBuffer(read) ? null : read;
          },
        },
        required: ['video_url'],
      };
    default:
      return { fields: common, required: [] };
  }
}

/** Every problem fal would report for this input on this endpoint (empty when it is fine). */
export function inputProblems(endpoint: string, body: unknown): FalDetail[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return [
      { loc: ['body'], msg: 'Input should be a valid dictionary', type: 'dict_type', input: body },
    ];
  }
  const { fields, required } = fieldsOf(endpoint);
  const input = body as Record<string, unknown>;
  const problems: FalDetail[] = [];
  for (const name of ['prompt', ...required]) {
    if (!(name in input)) {
      problems.push({ loc: ['body', name], msg: 'Field required', type: 'missing', input });
    }
  }
  for (const [field, value] of Object.entries(input)) {
    const check = fields[field];
    const problem = check
      ? check(field, value)
      : {
          loc: ['body', field],
          msg: 'Extra inputs are not permitted',
          type: 'extra_forbidden',
          input: value,
        };
    if (problem) problems.push(problem);
  }
  return problems;
}
