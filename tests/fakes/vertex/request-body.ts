/**
 * The Vertex fake's strict check of a Veo `predictLongRunning` body, answered in Google's
 * INVALID_ARGUMENT words: wrong types, unknown fields, and the Veo 3 rules (durationSeconds 4, 6
 * or 8; generateAudio required).
 */

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp']);
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const typeProblem = (field: string, expected: string) =>
  `Invalid value at '${field}', expected ${expected}.`;

const PARAMETERS: Record<string, (value: unknown) => string | null> = {
  durationSeconds: (v) =>
    typeof v !== 'number'
      ? typeProblem('parameters.durationSeconds', 'a number')
      : [4, 6, 8].includes(v)
        ? null
        : `Unsupported durationSeconds: ${v}. Supported values are 4, 6 and 8.`,
  aspectRatio: (v) =>
    v === '16:9' || v === '9:16' ? null : `Unsupported aspectRatio: ${String(v)}.`,
  generateAudio: (v) =>
    typeof v === 'boolean' ? null : typeProblem('parameters.generateAudio', 'a boolean'),
  resolution: (v) =>
    v === '720p' || v === '1080p' || v === '4k' ? null : `Unsupported resolution: ${String(v)}.`,
  sampleCount: (v) =>
    typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 4
      ? null
      : 'sampleCount must be an integer between 1 and 4.',
  storageUri: (v) =>
    typeof v === 'string' && /^gs:\/\/[a-z0-9][a-z0-9._-]*\//.test(v)
      ? null
      : 'storageUri must be a Cloud Storage URI like gs://bucket/prefix/.',
  personGeneration: (v) =>
    v === 'allow_adult' || v === 'dont_allow' || v === 'allow_all'
      ? null
      : `Unsupported personGeneration: ${String(v)}.`,
  negativePrompt: (v) =>
    typeof v === 'string' ? null : typeProblem('parameters.negativePrompt', 'a string'),
  seed: (v) =>
    typeof v === 'number' && Number.isInteger(v)
      ? null
      : typeProblem('parameters.seed', 'an integer'),
  enhancePrompt: (v) =>
    typeof v === 'boolean' ? null : typeProblem('parameters.enhancePrompt', 'a boolean'),
};

const unknownField = (name: string, at?: string) =>
  `Invalid JSON payload received. Unknown name "${name}"${at ? ` at '${at}'` : ''}: Cannot find field.`;

function imageProblem(image: unknown): string | null {
  if (!isObject(image)) return typeProblem('instances[0].image', 'an object');
  const { bytesBase64Encoded, gcsUri, mimeType, ...rest } = image;
  const extra = Object.keys(rest)[0];
  if (extra) return unknownField(extra, 'instances[0].image');
  if (gcsUri === undefined) {
    if (
      typeof bytesBase64Encoded !== 'string' ||
      bytesBase64Encoded === '' ||
      bytesBase64Encoded.length % 4 !== 0 ||
      !BASE64.test(bytesBase64Encoded)
    ) {
      return 'instances[0].image.bytesBase64Encoded must be standard base64.';
    }
  } else if (typeof gcsUri !== 'string' || !gcsUri.startsWith('gs://')) {
    return 'instances[0].image.gcsUri must be a gs:// URI.';
  }
  if (typeof mimeType !== 'string' || !IMAGE_TYPES.has(mimeType)) {
    return `Unsupported MIME type for instances[0].image: ${String(mimeType)}.`;
  }
  return null;
}

/** Google's INVALID_ARGUMENT message for a malformed body, or null when it is fine. */
export function bodyProblem(body: unknown): string | null {
  if (!isObject(body)) return 'Invalid JSON payload received. Expected an object.';
  const { instances, parameters, ...rest } = body;
  const extra = Object.keys(rest)[0];
  if (extra) return unknownField(extra);
  if (!Array.isArray(instances) || instances.length !== 1) {
    return 'instances must be a list with exactly one instance.';
  }
  const instance: unknown = instances[0];
  if (!isObject(instance)) return typeProblem('instances[0]', 'an object');
  const { prompt, image, ...instanceRest } = instance;
  const extraInstance = Object.keys(instanceRest)[0];
  if (extraInstance) return unknownField(extraInstance, 'instances[0]');
  if (typeof prompt !== 'string' || prompt.trim() === '') {
    return 'instances[0].prompt must be a non-empty string.';
  }
  if (image !== undefined) {
    const problem = imageProblem(image);
    if (problem) return problem;
  }
  if (!isObject(parameters)) return typeProblem('parameters', 'an object');
  for (const [key, value] of Object.entries(parameters)) {
    const check = PARAMETERS[key];
    if (!check) return unknownField(key, 'parameters');
    const problem = check(value);
    if (problem) return problem;
  }
  if (parameters.durationSeconds === undefined) {
    return 'durationSeconds is required for this model.';
  }
  if (parameters.generateAudio === undefined) {
    return 'generateAudio is required for this model.';
  }
  return null;
}
