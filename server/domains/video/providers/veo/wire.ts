/**
 * Veo's wire format on the Gemini API, in one place: the predictLongRunning body we send, and the
 * parsing of every JSON answer Google gives (long-running operations and google.rpc.Status
 * errors) into typed values. The rest of the adapter never reads Google's raw JSON.
 *
 * - An operation is `{ name, done?, error?: { code, message }, response? }`; a finished one holds
 *   `response.generateVideoResponse` with `generatedSamples[].video.uri` (a files `:download`
 *   address that needs the key and redirects to storage) or, when the safety filter dropped the
 *   video, `raiMediaFilteredCount` / `raiMediaFilteredReasons` and no samples.
 * - An error answer is `{ error: { code, message, status, details? } }`, where a
 *   google.rpc.RetryInfo detail may say how long to wait (`retryDelay: "30s"`).
 */
import type { VideoJobInput } from '../types.ts';

/** Operation names are used as a URL path, so only this shape is let through. */
const OPERATION_NAME = /^(?:models\/[\w.-]+\/)?operations\/[\w.-]+$/;

export const isOperationName = (value: unknown): value is string =>
  typeof value === 'string' && OPERATION_NAME.test(value);

/** What every job asks for: one 8-second landscape video (the product sells exactly that). */
const VIDEO_PARAMETERS = { aspectRatio: '16:9', durationSeconds: 8, sampleCount: 1 } as const;

/** Where an operation stands, read from its JSON. */
export type Outcome =
  { state: 'running' } | { state: 'succeeded'; uri: string } | { state: 'failed'; reason: string };

export interface VeoOperation {
  /** The operation's name when it has one of the accepted shape, else null. */
  name: string | null;
  outcome: Outcome;
}

/** Google's error body (google.rpc.Status), the parts we use. */
export interface GoogleError {
  code?: number | string;
  message?: string;
  status?: string;
  /** From the first google.rpc.RetryInfo detail with a readable delay. */
  retryDelayMs: number | null;
}

type Json = Record<string, unknown>;

const objectOr = (value: unknown): Json | undefined =>
  typeof value === 'object' && value !== null ? (value as Json) : undefined;

const stringOr = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** The predictLongRunning body for one job. */
export function predictRequest(input: VideoJobInput, personGeneration: string | undefined): string {
  const instance: Json = { prompt: input.prompt };
  if (input.image) {
    instance.image = {
      bytesBase64Encoded: input.image.data.toString('base64'),
      mimeType: input.image.mimeType,
    };
  }
  const parameters: Json = { ...VIDEO_PARAMETERS };
  if (personGeneration) parameters.personGeneration = personGeneration;
  return JSON.stringify({ instances: [instance], parameters });
}

function googleErrorOf(value: unknown): GoogleError {
  const status = objectOr(value) ?? {};
  const code = status.code;
  let retryDelayMs: number | null = null;
  const details: unknown[] = Array.isArray(status.details) ? status.details : [];
  for (const detail of details.map(objectOr)) {
    if (!stringOr(detail?.['@type'])?.endsWith('google.rpc.RetryInfo')) continue;
    const match = /^(\d+(?:\.\d+)?)s$/.exec(stringOr(detail?.retryDelay) ?? '');
    if (match) {
      retryDelayMs = Number(match[1]) * 1000;
      break;
    }
  }
  return {
    code: typeof code === 'number' || typeof code === 'string' ? code : undefined,
    message: stringOr(status.message),
    status: stringOr(status.status),
    retryDelayMs,
  };
}

/** The `error` of an error answer's text, or undefined when it is not Google's error JSON. */
export function parseErrorBody(text: string): GoogleError | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // Storage answers XML or nothing; the status line is all we have then.
    return undefined;
  }
  const error = objectOr(body)?.error;
  return error === undefined ? undefined : googleErrorOf(error);
}

function outcomeOf(op: Json): Outcome {
  if (op.error) {
    const { code, message } = googleErrorOf(op.error);
    return { state: 'failed', reason: message || `Veo reported error code ${code ?? 'unknown'}.` };
  }
  if (op.done !== true) return { state: 'running' };

  const result = objectOr(objectOr(op.response)?.generateVideoResponse);
  const samples = result?.generatedSamples;
  const uri = objectOr(objectOr(Array.isArray(samples) ? samples[0] : undefined)?.video)?.uri;
  if (typeof uri === 'string' && uri !== '') return { state: 'succeeded', uri };

  const filtered =
    typeof result?.raiMediaFilteredCount === 'number' ? result.raiMediaFilteredCount : 0;
  const reasons = Array.isArray(result?.raiMediaFilteredReasons)
    ? result.raiMediaFilteredReasons.filter((r): r is string => typeof r === 'string')
    : [];
  if (filtered > 0 || reasons.length > 0) {
    return {
      state: 'failed',
      reason: `Blocked by Veo's safety filter: ${reasons[0] ?? 'no reason given'}`,
    };
  }
  return { state: 'failed', reason: 'Veo finished without producing a video.' };
}

/** An operation answer, typed; null when the JSON is not an object at all. */
export function parseOperation(json: unknown): VeoOperation | null {
  const op = objectOr(json);
  if (!op) return null;
  return { name: isOperationName(op.name) ? op.name : null, outcome: outcomeOf(op) };
}
