/**
 * Veo 3.1 through fal.ai's queue API, spoken over plain fetch (no SDK: the queue is four calls).
 *
 * Sources (checked 2026-11-25): @fal-ai/client 1.10.1 (github.com/fal-ai/fal-js commit 381105e,
 * 2026-08-02: `queue.ts`, `response.ts`, `types/common.ts`, `types/endpoints.ts` Veo31Input /
 * Veo31ImageToVideoInput / I2VOutput); docs.fal.ai model-endpoints/queue, model-endpoints/webhooks
 * (signature scheme), errors (model errors, `X-Fal-Retryable`), model-apis/request-errors
 * (`{detail, error_type}`), inference-api/queue/cancel; TanStack/ai PR #396 (live fal behaviour:
 * a failed job still reaches COMPLETED, its error only shows when the result is fetched).
 *
 * - submit: `POST {queue}/{endpoint id}[?fal_webhook=...]` with `Authorization: Key ...` answers
 *   `{request_id, status_url, response_url, cancel_url}`. For endpoints with a sub-path
 *   (`fal-ai/veo3.1/image-to-video`) those URLs live under `fal-ai/veo3.1/requests/{id}`, so we
 *   keep the returned ones (deriving them as fal-js does only when one is missing or off-origin).
 * - poll: `GET status_url?logs=0`: IN_QUEUE (queue_position), IN_PROGRESS, COMPLETED. COMPLETED
 *   means done, not succeeded: the result tells (a video, or fal's error such as the 422
 *   `content_policy_violation`).
 * - download: the result's `video.url`, a public CDN URL fetched without our key.
 * - cancel: `PUT cancel_url`.
 *
 * The key is sent only to the queue's own origin (`headersFor`): result and webhook URLs come
 * from fal's answers and stored job ids, so every URL we follow with the key is checked first.
 * Stateless: the job id (./fal/wire.ts FalJob, JSON) carries everything later calls need.
 */
import { VideoProviderError } from '../errors.ts';
import { createWebhookVerifier } from './webhook.ts';
import { FAL_EXTEND_MAX_SOURCE_SECONDS, falEndpoint } from './models.ts';
import { optionInputProblem } from '../option-inputs.ts';
import {
  DEFAULT_FAL_JWKS_URL,
  DEFAULT_FAL_QUEUE_URL,
  decodeJobId,
  derivedUrls,
  encodeJobId,
  falErrorParser,
  isEndpointId,
  onOrigin,
  readStatus,
  submitBody,
  videoOf,
  type CallContext,
  type FalJob,
} from './wire.ts';
import { createProviderHttp, inlineVideoJsonBytes, type RetryPolicy } from '../http.ts';
import { writeInlineVideo } from '../inline-video.ts';
import type { OutboundPolicy } from '../../../../core/outbound.ts';
import type { VideoJobInput, VideoJobState, VideoProvider } from '../types.ts';

export interface FalSettings {
  /** FAL_KEY (`key_id:key_secret`). */
  key: string;
  /** Default https://queue.fal.run (tests point it at tests/fakes/fal/). */
  queueUrl?: string;
  /** Where fal publishes its webhook signing keys. */
  jwksUrl?: string;
  /** FAL_USER_ID: deliveries signed for another fal account are refused (none without it). */
  userId?: string;
  retry?: RetryPolicy;
  /** What the guarded fetcher may reach besides public addresses (OUTBOUND_ALLOW_HOSTS). */
  outbound?: OutboundPolicy;
  /** VIDEO_RESULT_MAX_BYTES (default 200 MB). */
  maxResultBytes?: number;
  fetchImpl?: typeof fetch;
  /** Milliseconds since the epoch; for webhook freshness and the key cache. */
  now?: () => number;
}

/** The checks a job must pass before anything is sent (and billed). */
function checkJob(input: VideoJobInput): void {
  const refuse = (why: string) =>
    new VideoProviderError(`fal submit: ${why}`, { kind: 'rejected' });
  if (!isEndpointId(input.model)) throw refuse(`"${input.model}" is not a fal endpoint id`);
  if (input.prompt.trim() === '') throw refuse('the prompt is empty');
  if (input.mode === 'image' && !input.image) throw refuse('image mode needs an image');
  if (input.mode === 'text' && input.image) throw refuse('text mode takes no image');
  const problem = optionInputProblem(input);
  if (problem) throw refuse(problem);
  const source = input.sourceVideo;
  if (input.options.extend && source && source.durationSeconds > FAL_EXTEND_MAX_SOURCE_SECONDS) {
    // fal's extend-video takes at most 8 s of source; the worker fails over to a route that can.
    throw refuse(`extend-video takes up to ${FAL_EXTEND_MAX_SOURCE_SECONDS} s of source video`);
  }
}

export function createFalProvider(settings: FalSettings): VideoProvider {
  if (!settings.key) throw new Error('fal: FAL_KEY is required.');
  const queueBase = (settings.queueUrl || DEFAULT_FAL_QUEUE_URL).replace(/\/+$/, '');
  const queueOrigin = new URL(queueBase).origin;
  const now = settings.now ?? Date.now;
  const httpFor = (context: CallContext) =>
    createProviderHttp({
      label: 'fal',
      // fal's CDN (v3.fal.media) and key endpoint are public: the key stays with the queue.
      headersFor: (url): Record<string, string> =>
        url.origin === queueOrigin ? { authorization: `Key ${settings.key}` } : {},
      parseError: falErrorParser(context),
      retry: settings.retry,
      outbound: settings.outbound,
      maxResultBytes: settings.maxResultBytes,
      fetchImpl: settings.fetchImpl,
    });
  const submitHttp = httpFor('submit');
  const queueHttp = httpFor('queue');
  const resultHttp = httpFor('result');
  const verifyWebhook = createWebhookVerifier({
    jwksUrl: settings.jwksUrl || DEFAULT_FAL_JWKS_URL,
    http: queueHttp,
    userId: settings.userId || undefined,
    now,
  });

  /** A URL from fal's answer when it is on the queue's origin, else the one fal-js would build. */
  const pick = (returned: unknown, derived: string) =>
    onOrigin(returned, queueOrigin) ? returned : derived;

  /**
   * The result of a COMPLETED job: the answer, or the job's failure as fal reported it there.
   * Errors that are not the job's outcome (our key refused, fal unreachable) are thrown.
   */
  async function fetchResult(
    what: string,
    job: FalJob,
    signal: AbortSignal | undefined,
  ): Promise<{ answer: unknown } | Extract<VideoJobState, { state: 'failed' }>> {
    try {
      return {
        answer: await resultHttp.json(
          what,
          job.responseUrl,
          { method: 'GET', maxBytes: inlineVideoJsonBytes(resultHttp.maxResultBytes) },
          signal,
        ),
      };
    } catch (err) {
      if (!(err instanceof VideoProviderError) || err.status === null) throw err;
      if (err.kind === 'content_policy') {
        return { state: 'failed', kind: 'content_policy', detail: err.detail };
      }
      if (err.kind === 'rejected' && err.status !== 401 && err.status !== 403) {
        return { state: 'failed', kind: 'provider', detail: err.detail };
      }
      throw err;
    }
  }

  return {
    name: 'fal',

    async submit(input, signal) {
      checkJob(input);
      // The route names the family; the job's tier and feature pick the endpoint (./models.ts).
      const endpoint = falEndpoint(input);
      const url = new URL(`${queueBase}/${endpoint}`);
      if (input.webhookUrl) url.searchParams.set('fal_webhook', input.webhookUrl);
      const answer = (await submitHttp.json(
        'submit',
        url,
        { method: 'POST', body: submitBody(input, endpoint) },
        signal,
      )) as Record<string, unknown> | null;
      const requestId = answer?.request_id;
      if (typeof requestId !== 'string' || requestId === '') {
        // fal took the request (2xx) but we cannot tell which job it is: never resubmit.
        throw new VideoProviderError('fal submit: the answer carried no request_id', {
          kind: 'in_doubt',
          detail: JSON.stringify(answer).slice(0, 300),
        });
      }
      const derived = derivedUrls(queueBase, endpoint, requestId);
      return encodeJobId({
        requestId,
        model: endpoint,
        statusUrl: pick(answer?.status_url, derived.statusUrl),
        responseUrl: pick(answer?.response_url, derived.responseUrl),
        cancelUrl: pick(answer?.cancel_url, derived.cancelUrl),
      });
    },

    async poll(jobId, signal): Promise<VideoJobState> {
      const job = decodeJobId(jobId, queueOrigin);
      const statusUrl = new URL(job.statusUrl);
      statusUrl.searchParams.set('logs', '0');
      const state = readStatus(await queueHttp.json('poll', statusUrl, { method: 'GET' }, signal));
      if (state !== 'completed') return state;
      const result = await fetchResult('result', job, signal);
      if ('state' in result) return result;
      if (!videoOf(result.answer)) {
        return {
          state: 'failed',
          kind: 'provider',
          detail: `no video in the result: ${JSON.stringify(result.answer).slice(0, 300)}`,
        };
      }
      return { state: 'succeeded' };
    },

    async download(jobId, destPath, signal) {
      // Re-read the result rather than trust anything remembered: this may be a new process.
      const job = decodeJobId(jobId, queueOrigin);
      const result = await fetchResult('result', job, signal);
      if ('state' in result) {
        throw new VideoProviderError(`fal download: ${job.requestId} has no video`, {
          kind: result.kind === 'content_policy' ? 'content_policy' : 'rejected',
          detail: result.detail,
        });
      }
      const video = videoOf(result.answer);
      if (!video) {
        throw new VideoProviderError(`fal download: ${job.requestId} has no video`, {
          kind: 'gone',
        });
      }
      if (video.base64 !== undefined)
        return writeInlineVideo(video.base64, destPath, resultHttp.maxResultBytes);
      await resultHttp.download('video download', video.url ?? '', destPath, signal);
    },

    async cancel(jobId, signal) {
      const job = decodeJobId(jobId, queueOrigin);
      try {
        // 200 OK (removed from the queue) or 202 CANCELLATION_REQUESTED (runner signalled).
        await queueHttp.json('cancel', job.cancelUrl, { method: 'PUT', idempotent: true }, signal);
      } catch (err) {
        // Already finished or unknown to fal: nothing left to stop.
        if (err instanceof VideoProviderError && (err.status === 404 || err.status === 410)) return;
        if (err instanceof VideoProviderError && err.detail === 'ALREADY_COMPLETED') return;
        throw err;
      }
    },

    requestIdOf(jobId) {
      return decodeJobId(jobId, queueOrigin).requestId;
    },

    verifyWebhook,
  };
}
