/**
 * Interactions for the Gemini fake: create (`POST /v1beta/interactions`), get
 * (`GET /v1beta/interactions/{id}`, which finishes a job on its `pollsUntilDone`-th check) and
 * cancel (`POST /v1beta/interactions/{id}/cancel`), in the shapes of @google/genai 3.3.0's
 * Interaction type: the video is a `model_output` step's `video` block; a safety refusal is a
 * `failed` interaction whose step carries a google.rpc.Status error; any other failure a `failed`
 * interaction with `errors[]`.
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { googleError, submitFailureAnswer, type Send } from './errors.ts';
import { parseCreateBody } from './request-body.ts';
import type { GeminiState } from './state.ts';
import type { GeminiRequestLog, Job } from './types.ts';

export const CURRENT_MODELS = ['gemini-omni-1.2-flash', 'gemini-omni-1.1-flash'];
/** Ids Google has shut down on this API (Veo preview ids on 2026-10-22, older ones before). */
export const RETIRED_MODELS = [
  'veo-3.1-generate-preview',
  'veo-3.1-fast-generate-preview',
  'veo-3.1-lite-generate-preview',
  'veo-3.0-generate-001',
  'veo-3.0-fast-generate-001',
  'veo-2.0-generate-001',
  'gemini-omni-flash-preview',
];
export const POLICY_MESSAGE =
  'Request blocked due to safety violations (harmful content). Please modify your input and retry.';
export const FAIL_MESSAGE = 'Video generation failed due to an internal error. Please try again.';

type Json = Record<string, unknown>;

const outcomeOf = (prompt: string): Job['outcome'] =>
  prompt.includes('[policy]')
    ? 'policy'
    : prompt.includes('[fail]')
      ? 'fail'
      : prompt.includes('[hang]')
        ? 'hang'
        : 'success';

function finish(state: GeminiState, job: Job): void {
  job.updated = new Date().toISOString();
  if (job.outcome === 'success') {
    job.status = 'completed';
    job.fileId = randomBytes(8).toString('hex');
    state.files.set(job.fileId, job);
  } else {
    job.status = 'failed';
  }
}

/** The interaction as the API shows it. */
async function interactionJson(state: GeminiState, job: Job): Promise<Json> {
  const json: Json = {
    id: job.requestId,
    object: 'interaction',
    model: job.model,
    status: job.status,
    created: job.created,
    updated: job.updated,
  };
  if (job.status === 'completed' && job.fileId) {
    const video: Json = { type: 'video', mime_type: 'video/mp4' };
    if (job.delivery === 'inline')
      video.data = (await state.fake.video(job.shape)).toString('base64');
    else video.uri = `${state.fake.url}/v1beta/files/${job.fileId}:download?alt=media`;
    json.steps = [{ type: 'model_output', content: [video] }];
    json.usage = {
      total_input_tokens: 42,
      total_output_tokens: 46_080,
      output_tokens_by_modality: [{ modality: 'video', tokens: 46_080 }],
    };
  } else if (job.status === 'failed' && job.outcome === 'policy') {
    json.steps = [{ type: 'model_output', error: { code: 3, message: POLICY_MESSAGE } }];
  } else if (job.status === 'failed') {
    json.errors = [{ code: 'internal_error', message: FAIL_MESSAGE }];
  }
  return json;
}

function notFoundModel(model: string): unknown {
  return RETIRED_MODELS.includes(model)
    ? googleError(
        404,
        `models/${model} is no longer available. Please switch to gemini-omni-1.1-flash; see https://ai.google.dev/gemini-api/docs/deprecations.`,
      )
    : googleError(
        404,
        `models/${model} is not found for API version v1beta, or is not supported for interactions. Call ListModels to see the list of available models and their supported methods.`,
      );
}

/** `POST /v1beta/interactions` with its raw body. */
export async function createInteraction(
  state: GeminiState,
  raw: string,
  entry: GeminiRequestLog,
  res: ServerResponse,
  send: Send,
): Promise<void> {
  const failure = state.submitFailures.shift();
  if (failure) return submitFailureAnswer(res, failure, send);
  let body: unknown;
  try {
    body = JSON.parse(raw);
    entry.body = body;
  } catch {
    return send(400, googleError(400, 'Invalid JSON payload received. Unexpected token.'));
  }
  const model = (body as { model?: unknown } | null)?.model;
  if (typeof model === 'string' && !CURRENT_MODELS.includes(model)) {
    return send(404, notFoundModel(model));
  }
  const parsed = parseCreateBody(body);
  if ('problem' in parsed) return send(400, googleError(400, parsed.problem));
  const request = parsed.ok;

  const now = new Date().toISOString();
  const job: Job = {
    requestId: `v1_${randomBytes(18).toString('base64url')}`,
    model: request.model,
    prompt: request.prompt,
    ...(request.image
      ? {
          image: {
            form: 'base64',
            mimeType: request.image.mimeType,
            bytes: request.image.data.length,
          },
        }
      : {}),
    polls: 0,
    canceled: false,
    outcome: outcomeOf(request.prompt),
    status: 'in_progress',
    delivery: request.delivery,
    shape: request.shape,
    imageCount: request.imageCount,
    created: now,
    updated: now,
  };
  state.jobs.set(job.requestId, job);
  state.fake.jobs.push(job);
  if (request.image) state.fake.images.set(job.requestId, request.image.data);
  // Without `background` the API holds the request until the generation has ended.
  if (!request.background && job.outcome !== 'hang') finish(state, job);
  const answer = await interactionJson(state, job);

  const delay = state.fake.submitDelayMs;
  if (delay <= 0) return send(200, answer);
  const timer = setTimeout(() => {
    state.timers.delete(timer);
    if (!res.destroyed) send(200, answer);
  }, delay);
  state.timers.add(timer);
}

/** `GET /v1beta/interactions/{id}`: one status check. */
export async function getInteraction(state: GeminiState, id: string, send: Send): Promise<void> {
  const job = state.jobs.get(id);
  if (!job) return send(404, googleError(404, 'Requested entity was not found.'));
  job.polls += 1;
  if (
    job.status === 'in_progress' &&
    job.outcome !== 'hang' &&
    job.polls >= state.fake.pollsUntilDone
  ) {
    finish(state, job);
  }
  return send(200, await interactionJson(state, job));
}

/** `POST /v1beta/interactions/{id}/cancel`. */
export async function cancelInteraction(state: GeminiState, id: string, send: Send): Promise<void> {
  const job = state.jobs.get(id);
  if (!job) return send(404, googleError(404, 'Requested entity was not found.'));
  if (job.status !== 'in_progress') {
    return send(
      400,
      googleError(
        400,
        `Interaction ${id} is already ${job.status} and cannot be cancelled.`,
        undefined,
        'FAILED_PRECONDITION',
      ),
    );
  }
  job.status = 'cancelled';
  job.canceled = true;
  job.updated = new Date().toISOString();
  return send(200, await interactionJson(state, job));
}
