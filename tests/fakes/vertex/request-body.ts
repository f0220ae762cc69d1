/**
 * The Vertex fake's strict check of a Veo `predictLongRunning` body, answered in Google's
 * INVALID_ARGUMENT words: wrong types, unknown fields, and the Veo 3 rules (durationSeconds 4, 6
 * or 8, an extension 7; generateAudio required) and those of VideoGenerationModelInstance:
 * `lastFrame` needs `image`; `video` (an extension) not with `image`; `referenceImages` (one to
 * three `asset` images, 16:9, 8 s) not with image, video or lastFrame.
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

function mediaProblem(media: unknown, at: string, types: Set<string>): string | null {
  if (!isObject(media)) return typeProblem(at, 'an object');
  const { bytesBase64Encoded, gcsUri, mimeType, ...rest } = media;
  const extra = Object.keys(rest)[0];
  if (extra) return unknownField(extra, at);
  if (gcsUri === undefined) {
    if (
      typeof bytesBase64Encoded !== 'string' ||
      bytesBase64Encoded === '' ||
      bytesBase64Encoded.length % 4 !== 0 ||
      !BASE64.test(bytesBase64Encoded)
    ) {
      return `${at}.bytesBase64Encoded must be standard base64.`;
    }
  } else if (typeof gcsUri !== 'string' || !gcsUri.startsWith('gs://')) {
    return `${at}.gcsUri must be a gs:// URI.`;
  }
  if (typeof mimeType !== 'string' || !types.has(mimeType)) {
    return `Unsupported MIME type for ${at}: ${String(mimeType)}.`;
  }
  return null;
}

const VIDEO_TYPES = new Set(['video/mp4']);

function referenceProblem(refs: unknown): string | null {
  const at = 'instances[0].referenceImages';
  if (!Array.isArray(refs)) return typeProblem(at, 'a list');
  if (refs.length < 1 || refs.length > 3) return `${at} must hold 1 to 3 asset images.`;
  for (const [i, ref] of refs.entries()) {
    if (!isObject(ref)) return typeProblem(`${at}[${i}]`, 'an object');
    const { image, referenceType, ...rest } = ref;
    const extra = Object.keys(rest)[0];
    if (extra) return unknownField(extra, `${at}[${i}]`);
    if (referenceType !== 'asset') {
      return `Unsupported referenceType: ${String(referenceType)}. This model supports asset reference images only.`;
    }
    const problem = mediaProblem(image, `${at}[${i}].image`, IMAGE_TYPES);
    if (problem) return problem;
  }
  return null;
}

/** The instance's own problem, its combination rules included, or null. */
function instanceProblem(instance: Record<string, unknown>): string | null {
  const { prompt, image, lastFrame, video, referenceImages, ...rest } = instance;
  const extra = Object.keys(rest)[0];
  if (extra) return unknownField(extra, 'instances[0]');
  if (typeof prompt !== 'string' || prompt.trim() === '') {
    return 'instances[0].prompt must be a non-empty string.';
  }
  const media: Array<[unknown, string, Set<string>]> = [
    [image, 'instances[0].image', IMAGE_TYPES],
    [lastFrame, 'instances[0].lastFrame', IMAGE_TYPES],
    [video, 'instances[0].video', VIDEO_TYPES],
  ];
  for (const [value, at, types] of media) {
    const problem = value === undefined ? null : mediaProblem(value, at, types);
    if (problem) return problem;
  }
  if (lastFrame !== undefined && image === undefined) {
    return 'lastFrame requires an input image (instances[0].image).';
  }
  if (video !== undefined && image !== undefined) {
    return 'If an input video is provided, an input image is not supported.';
  }
  if (referenceImages !== undefined) {
    if (image !== undefined || video !== undefined || lastFrame !== undefined) {
      return 'referenceImages cannot be combined with image, video or lastFrame.';
    }
    return referenceProblem(referenceImages);
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
  const problem = instanceProblem(instance);
  if (problem) return problem;
  if (!isObject(parameters)) return typeProblem('parameters', 'an object');
  const extending = instance.video !== undefined;
  for (const [key, value] of Object.entries(parameters)) {
    const check = PARAMETERS[key];
    if (!check) return unknownField(key, 'parameters');
    // An extension adds 7 s; other durations are 4, 6 or 8 (checked below).
    if (key === 'durationSeconds' && extending) {
      if (value !== 7)
        return `Unsupported durationSeconds for video extension: ${String(value)}. Supported value is 7.`;
      continue;
    }
    const problem = check(value);
    if (problem) return problem;
  }
  if (parameters.durationSeconds === undefined) {
    return 'durationSeconds is required for this model.';
  }
  if (parameters.generateAudio === undefined) {
    return 'generateAudio is required for this model.';
  }
  if (instance.referenceImages !== undefined) {
    if ((parameters.aspectRatio ?? '16:9') !== '16:9' || parameters.durationSeconds !== 8) {
      return 'Reference images are supported only with aspectRatio 16:9 and durationSeconds 8.';
    }
  }
  if (extending && parameters.resolution !== undefined && parameters.resolution !== '720p') {
    return `Unsupported resolution for video extension: ${String(parameters.resolution)}. Supported value is 720p.`;
  }
  return null;
}
