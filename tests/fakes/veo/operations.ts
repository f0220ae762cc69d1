/**
 * Long-running operations for the Veo fake: `models/{model}:predictLongRunning` starts one,
 * `GET models/{model}/operations/{id}` polls it until it is done after `pollsUntilDone` polls.
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { flakyAnswer, googleError, type Send } from './errors.ts';
import { bodyProblem } from './request-body.ts';
import { isFlaky, type Job, type VeoState } from './state.ts';
import type { VeoFakeRequest } from './types.ts';

export const RAI_REASON =
  'Sorry, we could not create this video: your prompt may violate our usage guidelines. ' +
  'You have not been charged. (support code 17301594)';
export const OPERATION_ERROR_MESSAGE =
  'Video generation failed: the model ran into an internal problem.';

/** `POST /v1beta/models/{model}:predictLongRunning` with its raw body. */
export function submitOperation(
  state: VeoState,
  model: string,
  raw: string,
  entry: VeoFakeRequest,
  res: ServerResponse,
  send: Send,
): void {
  const { fake, scenarios, submitFailures } = state;
  let body: unknown;
  try {
    body = JSON.parse(raw);
    entry.body = body;
  } catch {
    return send(
      400,
      googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received. Unexpected token.'),
    );
  }
  if (state.knownModels && !state.knownModels.has(model)) {
    return send(
      404,
      googleError(
        404,
        'NOT_FOUND',
        `models/${model} is not found for API version v1beta, or is not supported for predictLongRunning. Call ListModels to see the list of available models and their supported methods.`,
      ),
    );
  }
  const problem = bodyProblem(body);
  if (problem) return send(400, googleError(400, 'INVALID_ARGUMENT', problem));

  const prompt = ((body as { instances: { prompt: string }[] }).instances[0] as { prompt: string })
    .prompt;
  const scenario =
    scenarios.byPrompt.get(prompt) ?? scenarios.byModel.get(model) ?? scenarios.default;
  if (isFlaky(scenario)) {
    const failed = submitFailures.get(prompt) ?? 0;
    if (failed < fake.flakyFailures) {
      submitFailures.set(prompt, failed + 1);
      return flakyAnswer(fake, res, scenario, send);
    }
  }
  const job: Job = {
    id: randomBytes(6).toString('hex'),
    model,
    scenario,
    polls: 0,
    failures: { poll: 0, download: 0 },
  };
  state.jobs.set(`models/${model}/operations/${job.id}`, job);
  // A fresh operation has no `done` at all: proto3 JSON leaves false out.
  return send(200, { name: `models/${model}/operations/${job.id}` });
}

/** `GET /v1beta/models/{model}/operations/{id}`. */
export function pollOperation(
  state: VeoState,
  name: string,
  res: ServerResponse,
  send: Send,
): void {
  const { fake } = state;
  const job = state.jobs.get(name);
  if (!job) return send(404, googleError(404, 'NOT_FOUND', 'Requested entity was not found.'));
  if (isFlaky(job.scenario) && job.failures.poll < fake.flakyFailures) {
    job.failures.poll += 1;
    return flakyAnswer(fake, res, job.scenario, send);
  }
  job.polls += 1;
  if (job.polls < fake.pollsUntilDone) return send(200, { name });
  return send(200, finishedOperation(state, name, job));
}

function finishedOperation(state: VeoState, name: string, job: Job): unknown {
  const response = (generateVideoResponse: unknown) => ({
    name,
    done: true,
    response: {
      '@type': 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse',
      generateVideoResponse,
    },
  });
  if (job.scenario === 'rai') {
    return response({ raiMediaFilteredCount: 1, raiMediaFilteredReasons: [RAI_REASON] });
  }
  if (job.scenario === 'error') {
    return { name, done: true, error: { code: 13, message: OPERATION_ERROR_MESSAGE } };
  }
  const fileId = `${job.id}v`;
  state.files.set(fileId, job);
  return response({
    generatedSamples: [
      { video: { uri: `${state.fake.url}/v1beta/files/${fileId}:download?alt=media` } },
    ],
  });
}
