/**
 * The Replicate fake's check of a create-prediction body, answered as Replicate does: 422 with
 * `{ title: 'Input validation failed', detail: '- field: description\n…', status: 422,
 * invalid_fields: [{ type, field, description }] }` (changelog 2024-05-01; the descriptions are
 * gojsonschema's wording, as Replicate's are). The top level follows the OpenAPI request schema
 * (additionalProperties: false); `input` follows the Veo 3.1 model schema on replicate.com
 * (google/veo-3.1 and -fast share it), strictly: an unknown input field is refused too, so an
 * adapter typo fails loudly here instead of being ignored. The rules the schema cannot say are
 * checked too (`modelProblems`): -fast has no `reference_images`; reference images only with
 * 16:9 and 8 s and without a first frame; `last_frame` only with `image`.
 */

export interface InvalidField {
  type: string;
  field: string;
  description: string;
}

type Check = (value: unknown, field: string) => InvalidField | null;

const typeName = (value: unknown) =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : typeof value === 'number'
        ? Number.isInteger(value)
          ? 'integer'
          : 'number'
        : typeof value;

const invalidType = (field: string, expected: string, value: unknown): InvalidField => ({
  type: 'invalid_type',
  field,
  description: `Invalid type. Expected: ${expected}, given: ${typeName(value)}`,
});

const string: Check = (v, f) => (typeof v === 'string' ? null : invalidType(f, 'string', v));
const boolean: Check = (v, f) => (typeof v === 'boolean' ? null : invalidType(f, 'boolean', v));
const integer: Check = (v, f) =>
  typeof v === 'number' && Number.isInteger(v) ? null : invalidType(f, 'integer', v);

const oneOf =
  (base: Check, allowed: readonly (string | number)[]): Check =>
  (v, f) =>
    base(v, f) ??
    (allowed.includes(v as string | number)
      ? null
      : {
          type: 'enum',
          field: f,
          description: `${f} must be one of the following: ${allowed.map((a) => JSON.stringify(a)).join(', ')}`,
        });

/** A file input: an http(s) URL or a base64 data URI of an image. */
const uri: Check = (v, f) => {
  const problem = string(v, f);
  if (problem) return problem;
  const text = v as string;
  const ok = text.startsWith('data:')
    ? /^data:image\/[\w.+-]+;base64,[A-Za-z0-9+/]+={0,2}$/.test(text)
    : /^https?:\/\/[^\s]+$/.test(text);
  return ok ? null : { type: 'format', field: f, description: "Does not match format 'uri'" };
};

const uris: Check = (v, f) => {
  if (!Array.isArray(v)) return invalidType(f, 'array', v);
  if (v.length < 1 || v.length > 3) {
    return { type: 'array_max_items', field: f, description: 'Array must have 1 to 3 items' };
  }
  for (const [i, item] of v.entries()) {
    const problem = uri(item, `${f}.${i}`);
    if (problem) return problem;
  }
  return null;
};

/** The Veo 3.1 input schema (prompt required). */
const VEO_INPUT: Record<string, Check> = {
  prompt: string,
  image: uri,
  last_frame: uri,
  reference_images: uris,
  duration: oneOf(integer, [4, 6, 8]),
  aspect_ratio: oneOf(string, ['16:9', '9:16']),
  resolution: oneOf(string, ['720p', '1080p']),
  generate_audio: boolean,
  negative_prompt: string,
  seed: integer,
};

const EVENTS = ['start', 'output', 'logs', 'completed'] as const;

const TOP_LEVEL: Record<string, Check> = {
  input: (v, f) =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? null : invalidType(f, 'object', v),
  stream: boolean,
  webhook: (v, f) =>
    string(v, f) ??
    (/^https?:\/\/[^\s]+$/.test(v as string)
      ? null
      : { type: 'format', field: f, description: "Does not match format 'uri'" }),
  webhook_events_filter: (v, f) => {
    if (!Array.isArray(v)) return invalidType(f, 'array', v);
    for (const [i, item] of v.entries()) {
      const problem = oneOf(string, EVENTS)(item, `${f}.${i}`);
      if (problem) return problem;
    }
    return null;
  },
};

function checkObject(
  value: Record<string, unknown>,
  checks: Record<string, Check>,
  required: string[],
  prefix: string,
): InvalidField[] {
  const problems: InvalidField[] = [];
  const at = (key: string) => (prefix ? `${prefix}.${key}` : key);
  for (const key of required) {
    if (value[key] === undefined) {
      problems.push({ type: 'required', field: prefix, description: `${key} is required` });
    }
  }
  for (const [key, item] of Object.entries(value)) {
    const check = checks[key];
    const problem = check
      ? check(item, at(key))
      : {
          type: 'additional_property_not_allowed',
          field: prefix,
          description: `Additional property ${key} is not allowed`,
        };
    if (problem) problems.push(problem);
  }
  return problems;
}

/** The problems of a create body (`withVersion`: the `/predictions` form); [] when fine. */
export function bodyProblems(body: unknown, withVersion: boolean): InvalidField[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return [invalidType('', 'object', body)];
  }
  const record = body as Record<string, unknown>;
  const top = checkObject(
    record,
    withVersion ? { ...TOP_LEVEL, version: string } : TOP_LEVEL,
    withVersion ? ['version', 'input'] : ['input'],
    '',
  );
  if (top.length > 0) return top;
  const input = record.input as Record<string, unknown>;
  return checkObject(input, VEO_INPUT, ['prompt'], 'input');
}

/** The model's own rules for an input that passed the schema (see the header). */
export function modelProblems(model: string, input: Record<string, unknown>): InvalidField[] {
  const problems: InvalidField[] = [];
  if ('reference_images' in input) {
    if (model === 'google/veo-3.1-fast') {
      problems.push({
        type: 'additional_property_not_allowed',
        field: 'input',
        description: 'Additional property reference_images is not allowed',
      });
    } else if (
      (input.aspect_ratio ?? '16:9') !== '16:9' ||
      (input.duration ?? 8) !== 8 ||
      'image' in input
    ) {
      problems.push({
        type: 'condition',
        field: 'input.reference_images',
        description:
          'reference_images are only supported with aspect_ratio 16:9, duration 8 and no image',
      });
    }
  }
  if ('last_frame' in input && !('image' in input)) {
    problems.push({
      type: 'condition',
      field: 'input.last_frame',
      description: 'last_frame requires image',
    });
  }
  return problems;
}

/** Replicate's 422 body for these problems. */
export function validationError(problems: InvalidField[]) {
  return {
    title: 'Input validation failed',
    detail: problems.map((p) => `- ${p.field || '(root)'}: ${p.description}\n`).join(''),
    status: 422,
    invalid_fields: problems,
  };
}

/** How a file input came, for FakeJob.image. */
export function describeImage(value: string): { form: string; mimeType: string; bytes: number } {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(value);
  if (match) {
    return {
      form: 'data-uri',
      mimeType: match[1] ?? '',
      bytes: Buffer.from(match[2] ?? '', 'base64').length,
    };
  }
  return { form: 'url', mimeType: '', bytes: 0 };
}
