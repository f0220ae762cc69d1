/**
 * Veo long-running operations in the Vertex fake: `:predictLongRunning` starts one (after the
 * model, failSubmits and body checks), `:fetchPredictOperation` reads it, done after
 * `pollsUntilDone` reads, with the outcome the prompt's marker chose.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { googleError, sendFailure } from './errors.ts';
import { bodyProblem } from './request-body.ts';
import { mp4Seconds } from '../video/shape.ts';
import type { Job, Outcome, Send, VertexState } from './types.ts';

/** The Veo ids Vertex serves today (3.0 and 2.0 were retired 2026-06-30). */
export const CURRENT_MODELS = new Set([
  'veo-3.1-generate-001',
  'veo-3.1-fast-generate-001',
  'veo-3.1-lite-generate-001',
]);

/** Modelled on the documented refusal "Veo could not generate videos because the input image
 * violates Vertex AI's usage guidelines. ... Support codes: 15236754". */
export const RAI_REASON =
  "Veo could not generate videos because the input prompt violates Vertex AI's usage guidelines. " +
  'If you think this was an error, send feedback. Support codes: 42876398';
export const FAILURE_MESSAGE = 'Internal error encountered.';
/** Where `{ gcs: true }` results live when the submit named no storageUri. */
const DEFAULT_BUCKET = 'gs://fake-veo-output/';

function outcomeOf(prompt: string): Outcome {
  if (prompt.includes('[policy]')) return 'policy';
  if (prompt.includes('[fail]')) return 'fail';
  if (prompt.includes('[hang]')) return 'hang';
  return 'success';
}

/** `POST …/models/{model}:predictLongRunning`. */
export function submit(
  state: VertexState,
  model: string,
  body: unknown,
  res: ServerResponse,
  send: Send,
): void {
  const { fake } = state;
  const endpoint = `projects/${fake.project}/locations/${fake.location}/publishers/google/models/${model}`;
  if (!CURRENT_MODELS.has(model)) {
    return send(
      404,
      googleError(
        404,
        'NOT_FOUND',
        `Publisher Model \`${endpoint}\` was not found or your project does not have access to it. Please ensure you are using a valid model version. For more information, see: https://cloud.google.com/vertex-ai/generative-ai/docs/learn/model-versions`,
      ),
    );
  }
  const failure = state.failures[0];
  if (failure) {
    failure.left -= 1;
    if (failure.left <= 0) state.failures.shift();
    return sendFailure(send, failure.failure);
  }
  const problem = bodyProblem(body);
  if (problem) return send(400, googleError(400, 'INVALID_ARGUMENT', problem));

  const { instances, parameters } = body as {
    instances: Array<{
      prompt: string;
      image?: { bytesBase64Encoded?: string; mimeType: string };
      video?: { bytesBase64Encoded?: string };
    }>;
    parameters: {
      storageUri?: string;
      aspectRatio?: string;
      resolution?: string;
      durationSeconds: number;
    };
  };
  const instance = instances[0] ?? { prompt: '' };
  const outcome = outcomeOf(instance.prompt);
  if (outcome === 'policy' && fake.policyOnSubmit) {
    return send(400, googleError(400, 'INVALID_ARGUMENT', RAI_REASON));
  }
  const id = randomUUID();
  const name = `${endpoint}/operations/${id}`;
  const image = instance.image;
  // An extension's result is one clip: the source followed by the seconds asked for.
  const source = instance.video?.bytesBase64Encoded;
  const sourceSeconds = source ? (mp4Seconds(Buffer.from(source, 'base64')) ?? 0) : 0;
  const job: Job = {
    id,
    outcome,
    storageUri: parameters.storageUri,
    shape: {
      aspectRatio: parameters.aspectRatio === '9:16' ? '9:16' : '16:9',
      resolution: parameters.resolution === '1080p' ? '1080p' : '720p',
      seconds: Math.round(sourceSeconds + parameters.durationSeconds),
    },
    fake: {
      requestId: name,
      model,
      prompt: instance.prompt,
      image: image && {
        form: image.bytesBase64Encoded === undefined ? 'gcs' : 'base64',
        mimeType: image.mimeType,
        bytes: Buffer.from(image.bytesBase64Encoded ?? '', 'base64').length,
      },
      polls: 0,
      canceled: false,
    },
  };
  state.jobs.set(name, job);
  fake.jobs.push(job.fake);
  if (state.stalls > 0) {
    // The job exists (and would be billed) but the answer never comes: a timeout after sending.
    state.stalls -= 1;
    state.stalled.push(res);
    return;
  }
  return send(200, { name });
}

/** `POST …/models/{model}:fetchPredictOperation` `{ operationName }`. */
export async function fetchOperation(
  state: VertexState,
  model: string,
  body: unknown,
  send: Send,
): Promise<void> {
  const name = (body as { operationName?: unknown } | null)?.operationName;
  if (typeof name !== 'string' || name === '') {
    return send(400, googleError(400, 'INVALID_ARGUMENT', 'operationName is required.'));
  }
  const job = state.jobs.get(name);
  if (!job || job.fake.model !== model) {
    return send(404, googleError(404, 'NOT_FOUND', `Operation ${name} not found.`));
  }
  job.fake.polls += 1;
  if (job.outcome === 'hang' || job.fake.polls < state.fake.pollsUntilDone) {
    return send(200, { name });
  }
  return send(200, await finished(state, name, job));
}

async function finished(state: VertexState, name: string, job: Job): Promise<unknown> {
  if (job.outcome === 'fail') {
    return { name, done: true, error: { code: 13, message: FAILURE_MESSAGE } };
  }
  const response = (fields: Record<string, unknown>) => ({
    name,
    done: true,
    response: {
      '@type': 'type.googleapis.com/cloud.ai.large_models.vision.GenerateVideoResponse',
      ...fields,
    },
  });
  if (job.outcome === 'policy') {
    return response({ raiMediaFilteredCount: 1, raiMediaFilteredReasons: [RAI_REASON] });
  }
  if (job.storageUri !== undefined || state.fake.gcs) {
    const prefix = job.storageUri ?? DEFAULT_BUCKET;
    const gcsUri = `${prefix.endsWith('/') ? prefix : `${prefix}/`}${job.id}/sample_0.mp4`;
    state.objects.set(gcsUri.slice('gs://'.length), job);
    return response({ videos: [{ gcsUri, mimeType: 'video/mp4' }] });
  }
  const video = await state.fake.video(job.shape);
  return response({
    videos: [{ bytesBase64Encoded: video.toString('base64'), mimeType: 'video/mp4' }],
  });
}
