/**
 * Gemini Omni video on the Gemini API (generativelanguage.googleapis.com), through the
 * Interactions API. Veo is gone from this API (its `*-generate-preview` ids were shut down on
 * 2026-10-22 and now answer 404 "is no longer available"); Omni is its replacement there.
 *
 * The calls (wire format in ./gemini/wire.ts):
 * - submit: `POST /v1beta/interactions` with `x-goog-api-key` and `background: true`, answered at
 *   once with `{ id, status: 'in_progress' }`. The job id is the interaction id, nothing more:
 *   the base URL and key come from config, so a fresh worker can carry on with it.
 * - poll: `GET /v1beta/interactions/{id}`; download re-reads it for the video (a Files API `uri`,
 *   fetched with the key and redirects followed by hand, or inline base64).
 * - cancel: `POST /v1beta/interactions/{id}/cancel`.
 * No webhooks: Google's `webhook_config` exists, but the worker polls every provider without
 * them alike, and this keeps the adapter free of a second trust path.
 *
 * Errors are google.rpc.Status JSON. A 404 means "no such model" on submit (rejected: the route
 * is wrong, including a retired Veo id) but "no such interaction" later (gone).
 *
 * Sources (checked 2026-11-25): @google/genai 3.3.0 (npm, 2026-11-12) `dist/genai.d.ts` and
 * `dist/index.mjs` (interactions paths, `output_video` helper); googleapis/js-genai at v2.18.0
 * (2026-08-21) `src/gaos/models/interactions/*.ts`; java-genai and kotlin-genai
 * VideoResponseFormat docs (duration as a protobuf Duration string); ai.google.dev Interactions
 * and Omni docs as quoted by TanStack/ai #871/#886/#1272 and /work/shared/providers-brief.md §4;
 * retirement of the Veo preview ids: docs.apiyi.com notices of 2026-10-25 and 2026-11-09 (3rd-party).
 */
import { VideoProviderError, type ProviderErrorKind } from '../errors.ts';
import {
  createProviderHttp,
  inlineVideoJsonBytes,
  type ProviderHttp,
  type RetryPolicy,
} from '../http.ts';
import { writeInlineVideo } from '../inline-video.ts';
import type { OutboundPolicy } from '../../../../core/outbound.ts';
import type { VideoJobInput, VideoJobState, VideoProvider } from '../types.ts';
import { optionInputProblem } from '../option-inputs.ts';
import {
  createInteractionBody,
  DEFAULT_GEMINI_API_BASE,
  parseGoogleError,
  parseInteraction,
} from './wire.ts';

export interface GeminiSettings {
  apiKey: string;
  /** Default https://generativelanguage.googleapis.com (tests point it at tests/fakes/gemini/). */
  apiBase?: string;
  retry?: RetryPolicy;
  /** What the guarded fetcher may reach besides public addresses (OUTBOUND_ALLOW_HOSTS). */
  outbound?: OutboundPolicy;
  /** VIDEO_RESULT_MAX_BYTES (default 200 MB). */
  maxResultBytes?: number;
  fetchImpl?: typeof fetch;
}

const LABEL = 'Gemini API';
/** Interaction ids are opaque to us; this only keeps nonsense out of the URL path. */
const MAX_JOB_ID = 1024;
const INVALID_NAME = /invalid interaction name/i;

function checkJob(input: VideoJobInput): void {
  const refuse = (why: string) =>
    new VideoProviderError(`${LABEL} submit: ${why}`, { kind: 'rejected' });
  if (input.model.trim() === '') throw refuse('no model id.');
  if (input.prompt.trim() === '') throw refuse('the prompt is empty.');
  if ((input.mode === 'image') !== (input.image !== undefined)) {
    throw refuse(
      input.mode === 'image' ? 'image mode needs an image.' : 'text mode takes no image.',
    );
  }
  const problem = optionInputProblem(input);
  if (problem) throw refuse(`${problem}.`);
  // What ./models.ts refuses for Omni is never sent (the worker routes by capability).
  const { options } = input;
  if (options.negativePrompt) throw refuse('Gemini Omni takes no negative prompt.');
  if (options.lastFrame) throw refuse('Gemini Omni takes no last frame.');
  if (options.extend) throw refuse('extension is not offered through this adapter.');
  if (options.tier === 'fast') throw refuse('there is no fast Gemini Omni model.');
}

function checkJobId(what: string, jobId: string): string {
  if (jobId === '' || jobId.length > MAX_JOB_ID) {
    const shown = jobId.slice(0, 80);
    throw new VideoProviderError(`${LABEL} ${what}: "${shown}" is no interaction id.`, {
      kind: 'rejected',
    });
  }
  return jobId;
}

const finished = (state: VideoJobState) => state.state !== 'queued' && state.state !== 'running';

export function createGeminiProvider(settings: GeminiSettings): VideoProvider {
  if (!settings.apiKey) throw new Error('Gemini API: an API key is required.');
  const base = (settings.apiBase || DEFAULT_GEMINI_API_BASE).replace(/\/+$/, '');
  const apiOrigin = new URL(base).origin;

  /** The key goes to the API's own origin only: never to a storage host a file redirects to. */
  const headersFor = (url: URL): Record<string, string> =>
    url.origin === apiOrigin ? { 'x-goog-api-key': settings.apiKey } : {};

  /** One HTTP client per meaning of "not found": what is missing depends on the call. */
  const httpFor = (notFound: ProviderErrorKind): ProviderHttp =>
    createProviderHttp({
      label: LABEL,
      headersFor,
      parseError: (status, text) => {
        const parsed = parseGoogleError(status, text);
        if (parsed.kind) return parsed;
        // An unknown interaction id has been seen answered as 400 "Invalid interaction name"
        // (3rd-party live report) as well as 404: both mean the interaction is not there.
        const missing =
          status === 404 ||
          (notFound === 'gone' && status === 400 && INVALID_NAME.test(parsed.message));
        return missing ? { ...parsed, kind: notFound } : parsed;
      },
      retry: settings.retry,
      outbound: settings.outbound,
      maxResultBytes: settings.maxResultBytes,
      fetchImpl: settings.fetchImpl,
    });
  // A 404 on create names the model (unknown, or retired like the Veo preview ids).
  const submitHttp = httpFor('rejected');
  // Afterwards it is the interaction itself (deleted, expired, or never ours).
  const http = httpFor('gone');

  const interactionUrl = (id: string, suffix = '') =>
    `${base}/v1beta/interactions/${encodeURIComponent(id)}${suffix}`;

  async function getInteraction(what: string, jobId: string, signal: AbortSignal | undefined) {
    const id = checkJobId(what, jobId);
    const answer = await http.json(
      what,
      interactionUrl(id),
      { method: 'GET', maxBytes: inlineVideoJsonBytes(http.maxResultBytes) },
      signal,
    );
    const interaction = parseInteraction(answer);
    if (!interaction) {
      throw new VideoProviderError(`${LABEL} ${what}: the answer was not an interaction.`, {
        kind: 'unavailable',
      });
    }
    return interaction;
  }

  return {
    name: 'gemini',

    async submit(input, signal) {
      checkJob(input);
      const answer = await submitHttp.json(
        'submit',
        `${base}/v1beta/interactions`,
        { method: 'POST', body: createInteractionBody(input) },
        signal,
      );
      const id = parseInteraction(answer)?.id;
      if (!id || id.length > MAX_JOB_ID) {
        // Google accepted something (2xx) we cannot name: it may be generating and billing.
        throw new VideoProviderError(`${LABEL} submit: the answer carried no interaction id.`, {
          kind: 'in_doubt',
          detail: JSON.stringify(answer)?.slice(0, 500),
        });
      }
      return id;
    },

    async poll(jobId, signal) {
      return (await getInteraction('poll', jobId, signal)).state;
    },

    async download(jobId, destPath, signal) {
      // Re-read rather than trust anything remembered: this may be a new process.
      const { state, video } = await getInteraction('download', jobId, signal);
      if (!finished(state)) {
        throw new VideoProviderError(`${LABEL} download: ${jobId} has not finished yet.`, {
          kind: 'unavailable',
        });
      }
      if (!video) {
        const detail = state.state === 'failed' ? state.detail : 'no video in the interaction';
        throw new VideoProviderError(`${LABEL} download: ${jobId} has no video: ${detail}`, {
          kind: 'gone',
          detail,
        });
      }
      if ('data' in video) return writeInlineVideo(video.data, destPath, http.maxResultBytes);
      let uri: string;
      try {
        uri = new URL(video.uri, `${base}/`).href;
      } catch {
        throw new VideoProviderError(`${LABEL} download: unusable video address.`, {
          kind: 'gone',
          detail: video.uri.slice(0, 500),
        });
      }
      await http.download('video download', uri, destPath, signal);
    },

    async cancel(jobId, signal) {
      const id = checkJobId('cancel', jobId);
      try {
        await http.json(
          'cancel',
          interactionUrl(id, '/cancel'),
          { method: 'POST', idempotent: true },
          signal,
        );
      } catch (err) {
        // Google refuses to cancel what has already ended; that is the outcome we wanted anyway.
        if (!(err instanceof VideoProviderError) || err.kind !== 'rejected') throw err;
        const { state } = await getInteraction('cancel', jobId, signal);
        if (!finished(state)) throw err;
      }
    },

    requestIdOf(jobId) {
      return jobId;
    },
  };
}
