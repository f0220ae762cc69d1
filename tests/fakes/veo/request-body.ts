/** The Veo fake's check of a `predictLongRunning` body, in Google's INVALID_ARGUMENT words. */

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp']);
const PARAMETERS: Record<string, (value: unknown) => string | null> = {
  aspectRatio: (v) => (v === '16:9' || v === '9:16' ? null : 'must be "16:9" or "9:16"'),
  // The live API refuses the string form some doc samples show.
  durationSeconds: (v) =>
    typeof v !== 'number'
      ? 'The value type for durationSeconds needs to be a number.'
      : [4, 6, 8].includes(v)
        ? null
        : 'must be 4, 6 or 8',
  sampleCount: (v) => (v === 1 ? null : 'must be 1 for this model'),
  personGeneration: (v) =>
    v === 'allow_all' || v === 'allow_adult' || v === 'dont_allow'
      ? null
      : 'must be one of allow_all, allow_adult, dont_allow',
  negativePrompt: (v) => (typeof v === 'string' ? null : 'must be a string'),
  resolution: (v) => (v === '720p' || v === '1080p' ? null : 'must be "720p" or "1080p"'),
};

/** Google's INVALID_ARGUMENT for a malformed predictLongRunning body, or null when it is fine. */
export function bodyProblem(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return 'Invalid JSON payload received. Expected an object.';
  }
  const { instances, parameters, ...rest } = body as Record<string, unknown>;
  const unknownTop = Object.keys(rest)[0];
  if (unknownTop)
    return `Invalid JSON payload received. Unknown name "${unknownTop}": Cannot find field.`;
  if (!Array.isArray(instances) || instances.length !== 1) {
    return 'instances must be a list with exactly one instance.';
  }
  const instance = instances[0] as Record<string, unknown> | null;
  if (typeof instance !== 'object' || instance === null) return 'instances[0] must be an object.';
  const { prompt, image, ...instanceRest } = instance;
  const unknownInstance = Object.keys(instanceRest)[0];
  if (unknownInstance) {
    return `Invalid JSON payload received. Unknown name "${unknownInstance}" at 'instances[0]': Cannot find field.`;
  }
  if (typeof prompt !== 'string' || prompt.trim() === '') {
    return 'instances[0].prompt must be a non-empty string.';
  }
  if (image !== undefined) {
    const { bytesBase64Encoded, mimeType, ...imageRest } = (image ?? {}) as Record<string, unknown>;
    const unknownImage = Object.keys(imageRest)[0];
    if (unknownImage) {
      return `Invalid JSON payload received. Unknown name "${unknownImage}" at 'instances[0].image': Cannot find field.`;
    }
    if (
      typeof bytesBase64Encoded !== 'string' ||
      bytesBase64Encoded === '' ||
      bytesBase64Encoded.length % 4 !== 0 ||
      !/^[A-Za-z0-9+/]+={0,2}$/.test(bytesBase64Encoded)
    ) {
      return 'instances[0].image.bytesBase64Encoded must be standard base64.';
    }
    if (typeof mimeType !== 'string' || !IMAGE_TYPES.has(mimeType)) {
      return `Unsupported MIME type for instances[0].image: ${String(mimeType)}.`;
    }
  }
  if (parameters !== undefined) {
    if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) {
      return 'parameters must be an object.';
    }
    for (const [key, value] of Object.entries(parameters)) {
      const check = PARAMETERS[key];
      if (!check) return `\`${key}\` isn't supported by this model.`;
      const problem = check(value);
      if (problem) return problem.includes(key) ? problem : `parameters.${key} ${problem}.`;
    }
  }
  return null;
}
