/**
 * The fal fake's check of a Veo 3.1 input, in the words fal's (pydantic v2) validation uses:
 * `{loc: ['body', field], msg, type, input, ctx?}`. Fields and values follow fal-js
 * `Veo31Input`, `Veo31ImageToVideoInput`, `Veo31LiteInput` (Lite has no 4k; only the
 * image-to-video endpoints take `image_url`, and there `aspect_ratio` may also be "auto").
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

/** What fal makes of an `image_url` that is a data URI: the type and bytes, or the problem. */
export function readImage(
  value: unknown,
): { form: string; mimeType: string; bytes: number } | FalDetail {
  const problem = (msg: string): FalDetail => ({
    loc: ['body', 'image_url'],
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

/** Every problem fal would report for this input on this endpoint (empty when it is fine). */
export function inputProblems(endpoint: string, body: unknown): FalDetail[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return [
      { loc: ['body'], msg: 'Input should be a valid dictionary', type: 'dict_type', input: body },
    ];
  }
  const imageMode = endpoint.endsWith('/image-to-video');
  const lite = endpoint.startsWith('fal-ai/veo3.1/lite');
  const fields: Record<string, (field: string, value: unknown) => FalDetail | null> = {
    prompt: isString,
    aspect_ratio: literal(imageMode ? ['auto', '16:9', '9:16'] : ['16:9', '9:16']),
    duration: literal(['4s', '6s', '8s']),
    resolution: literal(lite ? ['720p', '1080p'] : ['720p', '1080p', '4k']),
    generate_audio: isBool,
    auto_fix: isBool,
    negative_prompt: isString,
    safety_tolerance: literal(['1', '2', '3', '4', '5', '6']),
    seed: isInt,
    ...(imageMode
      ? {
          image_url: (_field: string, value: unknown) => {
            const image = readImage(value);
            return 'loc' in image ? image : null;
          },
        }
      : {}),
  };
  const input = body as Record<string, unknown>;
  const problems: FalDetail[] = [];
  for (const required of imageMode ? ['prompt', 'image_url'] : ['prompt']) {
    if (!(required in input)) {
      problems.push({ loc: ['body', required], msg: 'Field required', type: 'missing', input });
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
