/**
 * Veo 3.1 on Vertex AI (now branded "Gemini Enterprise Agent Platform"; same hosts and REST
 * paths), spoken over plain fetch with an OAuth bearer token from a service account.
 *
 * Sources relied on (checked 2026-11):
 * - Veo video generation API reference and the Veo 3.1 model page
 *   (cloud.google.com/vertex-ai/generative-ai/docs/model-reference/veo-video-generation,
 *   docs.cloud.google.com/vertex-ai/generative-ai/docs/models/veo/3-1-generate): request body,
 *   `durationSeconds` 4/6/8 and `generateAudio` required for Veo 3, `storageUri`, the answer
 *   `videos[].gcsUri | bytesBase64Encoded` and `raiMediaFilteredCount/Reasons`.
 * - Vertex AI REST v1 `projects.locations.publishers.models`: `predictLongRunning` and
 *   `fetchPredictOperation` `{operationName}`; the resource has no operations collection.
 * - @google/genai 2.18.0 (github googleapis/js-genai): `operations.get` on Vertex posts
 *   `{operationName}` to `{name before /operations/}:fetchPredictOperation`; converters
 *   `videoFromVertex`, `generateVideosResponseFromVertex`; no cancel for video operations.
 * - googleapis `google/cloud/aiplatform/v1/aiplatform_v1.yaml`: CancelOperation (and GET) HTTP
 *   bindings cover endpoints, models, jobs... but nothing under `publishers/{p}/models/{m}`, so a
 *   Veo operation cannot be cancelled (see `cancel`).
 * - "Responsible AI and usage guidelines for Veo": safety refusals and their support codes.
 * - Vertex AI API errors and error-code-429 pages: google.rpc.Status bodies, RESOURCE_EXHAUSTED.
 * - Cloud Storage JSON API `objects.get` with `alt=media` for `gs://` results.
 * - google-auth-library 11.3.4 (node_modules; see ./vertex/auth.ts for what it does with keys).
 *
 * The calls:
 * - submit: `POST {api}/v1/projects/{p}/locations/{l}/publishers/google/models/{m}:predictLongRunning`
 *   → `{ name: 'projects/…/models/{m}/operations/{id}' }`. That name is the whole job id: it holds
 *   the project, region and model every later call needs.
 * - poll / download: `POST …/models/{m}:fetchPredictOperation` `{ operationName }` (a read, so
 *   retried like a GET). The video comes inline (base64) or, with VERTEX_OUTPUT_GCS_URI, as a
 *   `gs://` object read through the Cloud Storage JSON API with the same token.
 * - The token goes only to the Vertex API origin and the storage origin (http.ts asks
 *   `headersFor` again on every redirect hop).
 */
import { VideoProviderError } from '../errors.ts';
import { createProviderHttp, inlineVideoJsonBytes, type RetryPolicy } from '../http.ts';
import { writeInlineVideo } from '../inline-video.ts';
import type { OutboundPolicy } from '../../../../core/outbound.ts';
import type { VideoJobInput, VideoJobState, VideoProvider } from '../types.ts';
import { createTokenSource } from './auth.ts';
import { VERTEX_EXTEND_MAX_SOURCE_SECONDS, vertexTarget } from './models.ts';
import { optionInputProblem } from '../option-inputs.ts';
import {
  DEFAULT_STORAGE_URL,
  modelPath,
  parseGcsUri,
  parseGoogleError,
  parseOperation,
  parseOperationName,
  predictBody,
  type OperationOutcome,
  type OperationRef,
} from './wire.ts';

export interface VertexSettings {
  project: string;
  /** A region such as `us-central1`, or `global`. */
  location: string;
  /** Default https://{location}-aiplatform.googleapis.com (https://aiplatform.googleapis.com for global). */
  apiUrl?: string;
  /** Cloud Storage JSON API base, default https://storage.googleapis.com. */
  storageUrl?: string;
  /** `parameters.storageUri` (`gs://bucket/prefix/`) when set; otherwise results come inline. */
  outputGcsUri?: string;
  /** Service-account key file; without it (and without `credentials`) ADC is used. */
  keyFile?: string;
  credentials?: Record<string, unknown>;
  retry?: RetryPolicy;
  /** What the guarded fetcher may reach besides public addresses (OUTBOUND_ALLOW_HOSTS). */
  outbound?: OutboundPolicy;
  /** VIDEO_RESULT_MAX_BYTES (default 200 MB). */
  maxResultBytes?: number;
  fetchImpl?: typeof fetch;
}

/** Google's own API hosts: the global one and every regional `{region}-aiplatform`. */
const GOOGLE_API_HOST = /^(?:[a-z0-9-]+-)?aiplatform\.googleapis\.com$/;
const MODEL_ID = /^[a-z0-9][a-z0-9.-]*$/;
const LOCATION = /^[a-z0-9-]+$/;

const trimSlash = (url: string) => url.replace(/\/+$/, '');

const rejected = (message: string) => new VideoProviderError(message, { kind: 'rejected' });

/** The checks a job must pass before anything is sent (each a refusal of ours, not Google's). */
function checkJob(input: VideoJobInput): void {
  if (!MODEL_ID.test(input.model)) {
    throw rejected(`Vertex AI submit: "${input.model}" is not a Vertex model id.`);
  }
  if (input.prompt.trim() === '') throw rejected('Vertex AI submit: the prompt is empty.');
  if ((input.mode === 'image') !== (input.image !== undefined)) {
    throw rejected(
      input.mode === 'image'
        ? 'Vertex AI submit: image mode needs an image.'
        : 'Vertex AI submit: text mode takes no image.',
    );
  }
  const problem = optionInputProblem(input);
  if (problem) throw rejected(`Vertex AI submit: ${problem}.`);
  const source = input.sourceVideo;
  if (source && source.durationSeconds > VERTEX_EXTEND_MAX_SOURCE_SECONDS) {
    // Google extends sources of 1 to 30 s; the worker fails over to a route that can.
    throw rejected(
      `Vertex AI submit: Veo extends videos of up to ${VERTEX_EXTEND_MAX_SOURCE_SECONDS} s.`,
    );
  }
}

export function createVertexProvider(settings: VertexSettings): VideoProvider {
  if (!settings.project.trim()) throw new Error('Vertex AI: a project is required.');
  if (!LOCATION.test(settings.location)) {
    throw new Error(`Vertex AI: "${settings.location}" is not a location.`);
  }
  const apiUrl = settings.apiUrl ? trimSlash(settings.apiUrl) : null;
  const storageUrl = trimSlash(settings.storageUrl || DEFAULT_STORAGE_URL);
  const storageOrigin = new URL(storageUrl).origin;
  const apiOrigin = apiUrl ? new URL(apiUrl).origin : null;

  /** Each operation is served by its own region's host (unless an API URL is configured). */
  const apiBase = (location: string): string =>
    apiUrl ??
    (location === 'global'
      ? 'https://aiplatform.googleapis.com'
      : `https://${location}-aiplatform.googleapis.com`);

  const isOurs = (url: URL): boolean =>
    url.origin === storageOrigin ||
    (apiOrigin !== null
      ? url.origin === apiOrigin
      : url.protocol === 'https:' && url.port === '' && GOOGLE_API_HOST.test(url.hostname));

  const tokens = createTokenSource({
    keyFile: settings.keyFile,
    credentials: settings.credentials,
    fetchImpl: settings.fetchImpl,
    timeoutMs: settings.retry?.timeoutMs,
  });
  const common = {
    label: 'Vertex AI',
    // Anything else (a host a download is redirected to) gets no credentials at all.
    headersFor: async (url: URL): Promise<Record<string, string>> =>
      isOurs(url) ? { authorization: `Bearer ${await tokens.token()}` } : {},
    retry: settings.retry,
    outbound: settings.outbound,
    maxResultBytes: settings.maxResultBytes,
    fetchImpl: settings.fetchImpl,
  };
  const http = createProviderHttp({
    ...common,
    parseError: (status, text) => parseGoogleError(status, text),
  });
  // On submit a 404 means Google does not serve that model to us (retired, mistyped, or not
  // enabled in this project): a refusal to fail over from, not a job that went missing.
  const submitHttp = createProviderHttp({
    ...common,
    parseError: (status, text) => parseGoogleError(status, text, { notFound: 'rejected' }),
  });

  function operationRef(what: string, jobId: string): OperationRef {
    const ref = parseOperationName(jobId);
    if (!ref) throw rejected(`Vertex AI ${what}: "${jobId}" is not a Veo operation name.`);
    return ref;
  }

  async function fetchOperation(
    what: string,
    jobId: string,
    signal: AbortSignal | undefined,
  ): Promise<OperationOutcome> {
    const ref = operationRef(what, jobId);
    const answer = await http.json(
      what,
      `${apiBase(ref.location)}/v1/${modelPath(ref.project, ref.location, ref.model)}:fetchPredictOperation`,
      {
        method: 'POST',
        body: { operationName: ref.name },
        idempotent: true,
        maxBytes: inlineVideoJsonBytes(http.maxResultBytes),
      },
      signal,
    );
    const operation = parseOperation(answer);
    if (!operation) {
      throw new VideoProviderError(`Vertex AI ${what}: the answer was not an operation.`, {
        kind: 'unavailable',
        detail: JSON.stringify(answer)?.slice(0, 500) ?? '',
      });
    }
    return operation.outcome;
  }

  return {
    name: 'vertex',

    async submit(input, signal) {
      checkJob(input);
      const answer = await submitHttp.json(
        'submit',
        // The fast tier of a standard route runs on the fast model (./models.ts).
        `${apiBase(settings.location)}/v1/${modelPath(settings.project, settings.location, vertexTarget(input))}:predictLongRunning`,
        { method: 'POST', body: predictBody(input, settings.outputGcsUri || undefined) },
        signal,
      );
      const ref = parseOperationName((answer as { name?: unknown } | null)?.name);
      if (!ref) {
        // Google took the request (2xx) but we cannot follow the job it may have started.
        throw new VideoProviderError('Vertex AI submit: the answer named no Veo operation.', {
          kind: 'in_doubt',
          detail: JSON.stringify(answer)?.slice(0, 500) ?? '',
        });
      }
      return ref.name;
    },

    async poll(jobId, signal): Promise<VideoJobState> {
      const outcome = await fetchOperation('poll', jobId, signal);
      return outcome.state === 'succeeded' ? { state: 'succeeded' } : outcome;
    },

    async download(jobId, destPath, signal) {
      // Re-read the operation rather than trust memory: this may be a fresh process.
      const outcome = await fetchOperation('download', jobId, signal);
      if (outcome.state === 'running') {
        throw new VideoProviderError(`Vertex AI download: ${jobId} has not finished.`, {
          kind: 'unavailable',
        });
      }
      if (outcome.state === 'failed') {
        throw new VideoProviderError(`Vertex AI download: ${jobId} has no video.`, {
          kind: outcome.kind === 'content_policy' ? 'content_policy' : 'gone',
          detail: outcome.detail,
        });
      }
      const { video } = outcome;
      if ('base64' in video) return writeInlineVideo(video.base64, destPath, http.maxResultBytes);

      const object = parseGcsUri(video.gcsUri);
      if (!object) {
        throw new VideoProviderError(`Vertex AI download: unusable video URI ${video.gcsUri}`, {
          kind: 'gone',
        });
      }
      // The JSON API wants the whole object name as one path segment, slashes encoded.
      const url =
        `${storageUrl}/storage/v1/b/${encodeURIComponent(object.bucket)}` +
        `/o/${encodeURIComponent(object.object)}?alt=media`;
      await http.download('download', url, destPath, signal);
    },

    /**
     * Resolves without a call: Vertex AI has no cancel for publisher-model (Veo) operations.
     * Its CancelOperation HTTP bindings list no `publishers/{p}/models/{m}/operations/{id}` path
     * (the same reason polling needs fetchPredictOperation instead of GET), and Google's SDK
     * offers no cancel for video operations. The job runs to its end at Google; the worker stops
     * polling it and refunds under its own rules.
     */
    async cancel(jobId) {
      operationRef('cancel', jobId);
    },

    requestIdOf: (jobId) => jobId,
  };
}
