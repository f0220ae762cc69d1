/**
 * Veo 3.1 through Replicate's predictions API (`google/veo-3.1`, `google/veo-3.1-fast`), spoken
 * over plain fetch (./http.ts) rather than the `replicate` package: we need our own error kinds,
 * POST-safety and a download that never sends the token to replicate.delivery.
 *
 * Versions relied on (checked 2026-11-25):
 * - Replicate's OpenAPI description "1.0.0-a1" (the copy vendored by github.com/tryAGI/Replicate,
 *   commit 6c8ab8e of 2026-04-09): create/get/cancel, the prediction object, the statuses with
 *   `aborted`, the Cancel-After header (`30s`, `5m`, `1h30m`; bare numbers are seconds; minimum
 *   5 s), `GET /webhooks/default/secret` → `{ key }`.
 * - replicate-javascript 1.4.0 (commit 2fd6f39, 2025-11-17): Prediction type, `validateWebhook`
 *   (lib/util.js), `webhooks.default.secret.get`, Retry-After handling.
 * - replicate-python-beta (commit 48e138a, 2025-12-18): `cancel_after` sent as the header.
 * - replicate.com changelog 2025-10-16 (prediction deadlines), 2024-05-01 (422 `invalid_fields`);
 *   docs: data retention (API outputs removed after 1 hour), rate limits (429 body
 *   "Request was throttled. Your rate limit resets in ~30s."), webhooks (Standard Webhooks).
 *
 * Calls:
 * - submit: `POST {apiUrl}/models/{owner}/{name}/predictions` for an official model, or
 *   `POST {apiUrl}/predictions` with `version` for `owner/name:version`; `Cancel-After` carries
 *   the task's deadline so Replicate itself stops (and, if it never started, does not bill) a job
 *   we gave up on. No `Prefer: wait`: a video takes minutes, so we take the id and poll.
 * - poll / download: `GET {apiUrl}/predictions/{id}`; the output is a URI on replicate.delivery,
 *   fetched without our token and at once (outputs expire after an hour: then `gone`).
 * - cancel: `POST {apiUrl}/predictions/{id}/cancel`.
 * The job id is the prediction id itself: nothing else is needed later (stateless, see types.ts).
 */
import { isProviderError, VideoProviderError } from '../errors.ts';
import { createProviderHttp, type ParsedError, type RetryPolicy } from '../http.ts';
import { keyFailureMemory } from '../key-failures.ts';
import { verifyWebhook, webhookHeaders, webhookKey } from './webhook.ts';
import { replicateTarget } from './models.ts';
import { optionInputProblem } from '../option-inputs.ts';
import {
  DEFAULT_REPLICATE_API_URL,
  cancelAfter,
  jobState,
  outputUrl,
  parsePrediction,
  parseReplicateError,
  predictionInput,
  type Prediction,
} from './wire.ts';
import type { OutboundPolicy } from '../../../../core/outbound.ts';
import type { VideoJobInput, VideoProvider } from '../types.ts';

export interface ReplicateSettings {
  /** REPLICATE_API_TOKEN (`r8_…`). */
  token: string;
  /** Default https://api.replicate.com/v1 (tests point it at tests/fakes/replicate/). */
  apiUrl?: string;
  /**
   * The webhook signing secret (`whsec_…`). When absent it is fetched once from
   * `GET {apiUrl}/webhooks/default/secret` on the first webhook and kept for the process.
   */
  webhookSecret?: string;
  retry?: RetryPolicy;
  /** What the guarded fetcher may reach besides public addresses (OUTBOUND_ALLOW_HOSTS). */
  outbound?: OutboundPolicy;
  /** VIDEO_RESULT_MAX_BYTES (default 200 MB). */
  maxResultBytes?: number;
  fetchImpl?: typeof fetch;
  /** Our clock (ms), for Cancel-After and the webhook timestamp window. */
  now?: () => number;
}

/** Prediction ids are short base32 strings; anything else never goes into a URL path. */
const PREDICTION_ID = /^[A-Za-z0-9_-]{1,100}$/;

const refuse = (message: string) =>
  new VideoProviderError(`Replicate submit: ${message}`, { kind: 'rejected' });

/** The checks a job must pass before anything is sent; returns the model reference to run. */
function checkJob(input: VideoJobInput) {
  const ref = replicateTarget(input);
  if (!ref) throw refuse(`"${input.model}" is not a model (owner/name or owner/name:version).`);
  if (input.prompt.trim() === '') throw refuse('the prompt is empty.');
  if ((input.mode === 'image') !== (input.image !== undefined)) {
    throw refuse(
      input.mode === 'image' ? 'image mode needs an image.' : 'text mode takes no image.',
    );
  }
  const problem = optionInputProblem(input);
  if (problem) throw refuse(`${problem}.`);
  // Neither Veo model on Replicate takes a video (./models.ts): never sent there.
  if (input.options.extend) throw refuse('Replicate cannot extend a video.');
  return ref;
}

export function createReplicateProvider(settings: ReplicateSettings): VideoProvider {
  if (!settings.token) throw new Error('Replicate: an API token is required.');
  const apiUrl = (settings.apiUrl || DEFAULT_REPLICATE_API_URL).replace(/\/+$/, '');
  const apiOrigin = new URL(apiUrl).origin;
  const now = settings.now ?? Date.now;
  const common = {
    label: 'Replicate',
    // The token goes to Replicate's API origin only: never to replicate.delivery, where outputs
    // live, nor to wherever a redirect points.
    headersFor: (url: URL): Record<string, string> =>
      url.origin === apiOrigin ? { authorization: `Bearer ${settings.token}` } : {},
    retry: settings.retry,
    outbound: settings.outbound,
    maxResultBytes: settings.maxResultBytes,
    fetchImpl: settings.fetchImpl,
  };
  const http = createProviderHttp({
    ...common,
    parseError: (status, text) => parseReplicateError(status, text),
  });
  // On create a 404 is about the model (unknown, retired, private): a bad route entry, so
  // `rejected`; elsewhere a 404 is a prediction that no longer exists (`gone`, the default).
  const createHttp = createProviderHttp({
    ...common,
    parseError: (status, text): ParsedError => {
      const parsed = parseReplicateError(status, text);
      return status === 404 ? { ...parsed, kind: parsed.kind ?? 'rejected' } : parsed;
    },
  });

  function predictionUrl(what: string, jobId: string, suffix = ''): string {
    if (!PREDICTION_ID.test(jobId)) {
      throw new VideoProviderError(`Replicate ${what}: "${jobId}" is not a prediction id.`, {
        kind: 'rejected',
      });
    }
    return `${apiUrl}/predictions/${jobId}${suffix}`;
  }

  async function getPrediction(
    what: string,
    jobId: string,
    signal: AbortSignal | undefined,
  ): Promise<Prediction> {
    const url = predictionUrl(what, jobId);
    const prediction = parsePrediction(await http.json(what, url, { method: 'GET' }, signal));
    if (!prediction) {
      throw new VideoProviderError(`Replicate ${what}: the answer was not a prediction.`, {
        kind: 'unavailable',
      });
    }
    return prediction;
  }

  let signingKey: Promise<Buffer> | undefined = settings.webhookSecret
    ? Promise.resolve(webhookKey(settings.webhookSecret))
    : undefined;

  const failures = keyFailureMemory('Replicate webhook secret', now);

  /**
   * The webhook key: configured, or fetched on first use and then kept. A failed fetch (one
   * attempt: a delivery waits for it) is remembered for a minute, during which every delivery is
   * answered 503 without a call, so forged requests cannot make us hammer Replicate.
   */
  function webhookSigningKey(): Promise<Buffer> {
    if (signingKey) return signingKey;
    const refusal = failures.refusal();
    if (refusal) return Promise.reject(refusal);
    const fetching = http
      .json(
        'webhook secret',
        `${apiUrl}/webhooks/default/secret`,
        { method: 'GET', once: true },
        undefined,
      )
      .catch((err: unknown) => {
        // Whatever failed (our token refused included) is not the sender's fault: 503, not 400.
        if (err instanceof VideoProviderError && !err.retryable) {
          throw new VideoProviderError(err.message, { kind: 'unavailable', cause: err });
        }
        throw err;
      })
      .then((answer) => {
        const key = (answer as { key?: unknown } | null)?.key;
        try {
          if (typeof key !== 'string') throw new Error('no key in the answer');
          return webhookKey(key);
        } catch (err) {
          throw new VideoProviderError(`Replicate webhook secret: ${String(err)}`, {
            kind: 'unavailable',
            cause: err,
          });
        }
      });
    signingKey = fetching;
    // A failed fetch is not kept, but remembered: a webhook after the minute asks again
    // (Replicate retries deliveries).
    fetching.catch(() => {
      if (signingKey !== fetching) return;
      signingKey = undefined;
      failures.failed();
    });
    return fetching;
  }

  return {
    name: 'replicate',

    async submit(input, signal) {
      const ref = checkJob(input);
      const body = {
        ...(ref.version ? { version: `${ref.owner}/${ref.name}:${ref.version}` } : {}),
        input: predictionInput(input),
        // Only the terminal event: the worker polls on it; start/output/logs would be noise.
        ...(input.webhookUrl
          ? { webhook: input.webhookUrl, webhook_events_filter: ['completed'] }
          : {}),
      };
      const url = ref.version
        ? `${apiUrl}/predictions`
        : `${apiUrl}/models/${encodeURIComponent(ref.owner)}/${encodeURIComponent(ref.name)}/predictions`;
      const answer = await createHttp.json(
        'submit',
        url,
        { method: 'POST', body, headers: { 'cancel-after': cancelAfter(input.deadlineAt, now()) } },
        signal,
      );
      const prediction = parsePrediction(answer);
      if (!prediction || !PREDICTION_ID.test(prediction.id)) {
        // Replicate answered 2xx, so a prediction probably exists that we cannot name.
        throw new VideoProviderError('Replicate submit: the answer carried no prediction id.', {
          kind: 'in_doubt',
          detail: JSON.stringify(answer)?.slice(0, 500) ?? '',
        });
      }
      return prediction.id;
    },

    async poll(jobId, signal) {
      return jobState(await getPrediction('poll', jobId, signal));
    },

    async download(jobId, destPath, signal) {
      // Re-read the prediction rather than trust anything remembered: this may be a new process.
      const prediction = await getPrediction('download', jobId, signal);
      const state = jobState(prediction);
      if (state.state === 'queued' || state.state === 'running') {
        throw new VideoProviderError(`Replicate download: ${jobId} has not finished yet.`, {
          kind: 'unavailable',
        });
      }
      if (state.state === 'failed') {
        throw new VideoProviderError(`Replicate download: ${jobId} has no video.`, {
          kind: 'gone',
          detail: state.detail,
        });
      }
      const url = outputUrl(prediction);
      if (!url) {
        throw new VideoProviderError(
          prediction.dataRemoved
            ? `Replicate download: the output of ${jobId} was removed (API outputs last an hour).`
            : `Replicate download: ${jobId} succeeded without an output.`,
          { kind: 'gone' },
        );
      }
      // A 404/410 from replicate.delivery (expired file) is `gone` by the shared mapping.
      await http.download('video download', url, destPath, signal);
    },

    async cancel(jobId, signal) {
      try {
        // Cancelling twice is harmless, so a lost answer may be retried.
        await http.json(
          'cancel',
          predictionUrl('cancel', jobId, '/cancel'),
          { method: 'POST', idempotent: true },
          signal,
        );
      } catch (err) {
        // Already removed at Replicate: nothing left to stop.
        if (isProviderError(err) && err.kind === 'gone') return;
        throw err;
      }
    },

    requestIdOf(jobId) {
      return jobId;
    },

    async verifyWebhook(req) {
      webhookHeaders(req, now());
      return verifyWebhook(req, await webhookSigningKey(), now());
    },
  };
}
