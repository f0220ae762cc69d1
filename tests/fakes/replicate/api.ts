/**
 * The Replicate fake's API server (api.replicate.com/v1): every request is logged, the token is
 * checked first, then the path picks the endpoint. Error bodies are Replicate's: `{ detail }`,
 * or the problem form `{ title, detail, status }` (422 with `invalid_fields`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { headerOf, logRequest, readBody, sendJson } from '../http.ts';
import { bodyProblems, describeImage, modelProblems, validationError } from './input.ts';
import {
  cancel,
  outcomeOf,
  parseCancelAfter,
  predictionId,
  predictionJson,
  statusCheck,
} from './predictions.ts';
import type { FakeState, Job, ReplicateFakeRequest } from './types.ts';

export const MODELS = ['google/veo-3.1', 'google/veo-3.1-fast'] as const;

type Send = (status: number, body: unknown) => void;

export async function handleApi(
  state: FakeState,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { url, entry, send } = logRequest<ReplicateFakeRequest>(state.fake.requests, req, res, {
    server: 'api',
    authorization: headerOf(req, 'authorization'),
  });
  const raw = req.method === 'POST' ? await readBody(req) : '';

  if (entry.authorization !== `Bearer ${state.fake.token}`) {
    return send(401, {
      title: 'Unauthenticated',
      detail: 'You did not pass a valid authentication token',
      status: 401,
    });
  }
  const path = url.pathname.replace(/^\/v1(?=\/)/, '');
  const official = /^\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(path);
  if (official && req.method === 'POST') {
    return create(state, req, raw, entry, res, `${official[1]}/${official[2]}`);
  }
  if (path === '/predictions' && req.method === 'POST') {
    return create(state, req, raw, entry, res, null);
  }
  const one = /^\/predictions\/([^/]+)(\/cancel)?$/.exec(path);
  const job = one ? state.jobs.get(one[1] ?? '') : undefined;
  if (one && job && req.method === (one[2] ? 'POST' : 'GET')) {
    if (one[2]) cancel(state, job);
    else statusCheck(state, job);
    return send(200, predictionJson(state, job));
  }
  if (path === '/webhooks/default/secret' && req.method === 'GET') {
    return send(200, { key: state.fake.webhookSecret });
  }
  return send(404, { detail: 'Not found.' });
}

/** Answers a submit failure the test asked for, before anything else happens. */
function injectedFailure(state: FakeState, entry: ReplicateFakeRequest, res: ServerResponse) {
  const { failure } = state.submitFailures;
  state.submitFailures.count -= 1;
  entry.status = failure.status;
  if (failure.status === 429) {
    const wait = failure.retryAfterSeconds;
    if (wait !== undefined) res.setHeader('retry-after', String(wait));
    return sendJson(res, 429, {
      detail: `Request was throttled. Your rate limit resets in ~${wait ?? 30}s.`,
    });
  }
  if (failure.status === 500) return sendJson(res, 500, { detail: 'Internal server error' });
  // Gateway errors come from the edge in front of the API, as HTML.
  res.statusCode = failure.status;
  res.setHeader('content-type', 'text/html');
  res.end(
    `<html><body><h1>${failure.status}</h1>The server is temporarily unavailable.</body></html>`,
  );
}

/** Which model a `/predictions` body's `version` names: `owner/name`, `…:id` or a bare id. */
function modelOfVersion(state: FakeState, version: string) {
  for (const model of MODELS) {
    const id = state.fake.versions[model];
    if (version === model) return { model, version: 'hidden' };
    if (version === id || version === `${model}:${id}`) return { model, version: id ?? '' };
  }
  return null;
}

function create(
  state: FakeState,
  req: IncomingMessage,
  raw: string,
  entry: ReplicateFakeRequest,
  res: ServerResponse,
  pathModel: string | null,
): void {
  const send: Send = (status, body) => {
    entry.status = status;
    sendJson(res, status, body);
  };
  const header = req.headers['cancel-after'];
  entry.cancelAfter = typeof header === 'string' ? header : null;
  if (state.submitFailures.count > 0) return injectedFailure(state, entry, res);

  let body: unknown;
  try {
    body = JSON.parse(raw);
    entry.body = body;
  } catch (err) {
    return send(400, { detail: `JSON parse error - ${(err as Error).message}` });
  }
  if (pathModel !== null && !(MODELS as readonly string[]).includes(pathModel)) {
    return send(404, {
      title: 'Not found',
      detail: `The requested model ${pathModel} does not exist (or you do not have access to it).`,
      status: 404,
    });
  }
  const problems = bodyProblems(body, pathModel === null);
  if (problems.length > 0) return send(422, validationError(problems));
  const record = body as Record<string, unknown>;
  const target =
    pathModel === null
      ? modelOfVersion(state, record.version as string)
      : { model: pathModel, version: 'hidden' };
  if (!target) {
    return send(422, {
      title: 'Invalid version or not permitted',
      detail:
        "The specified version does not exist (or perhaps you don't have permission to use it?)",
      status: 422,
    });
  }

  let deadline: number | undefined;
  if (entry.cancelAfter !== null) {
    const ms = parseCancelAfter(entry.cancelAfter);
    if (ms === null || ms < 5000) {
      return send(422, {
        title: 'Invalid Cancel-After header',
        detail: 'Cancel-After must be a duration such as 30s, 5m or 1h30m, at least 5s.',
        status: 422,
      });
    }
    deadline = state.now() + ms;
  }

  const input = record.input as Record<string, unknown>;
  const ruled = modelProblems(target.model, input);
  if (ruled.length > 0) return send(422, validationError(ruled));
  const prompt = input.prompt as string;
  const image = typeof input.image === 'string' ? describeImage(input.image) : undefined;
  const webhook = typeof record.webhook === 'string' ? record.webhook : undefined;
  const job: Job = {
    requestId: predictionId(),
    model: target.model,
    prompt,
    ...(image ? { image } : {}),
    ...(webhook ? { webhookUrl: webhook } : {}),
    polls: 0,
    canceled: false,
    outcome: outcomeOf(prompt),
    version: target.version,
    input,
    // What the prediction makes; resolution defaults as the models' schemas say.
    shape: {
      aspectRatio: input.aspect_ratio === '9:16' ? '9:16' : '16:9',
      resolution:
        (input.resolution ?? (target.model === 'google/veo-3.1' ? '1080p' : '720p')) === '1080p'
          ? '1080p'
          : '720p',
      seconds: typeof input.duration === 'number' ? input.duration : 8,
    },
    status: 'starting',
    createdAt: state.now(),
    ...(deadline === undefined ? {} : { deadline }),
    output: null,
    error: null,
    dataRemoved: false,
    ...(Array.isArray(record.webhook_events_filter)
      ? { webhookEventsFilter: record.webhook_events_filter as string[] }
      : {}),
  };
  state.jobs.set(job.requestId, job);
  state.fake.jobs.push(job);

  const answer = predictionJson(state, job);
  if (state.fake.submitDelayMs <= 0) return send(201, answer);
  const timer = setTimeout(() => {
    state.timers.delete(timer);
    // Sent even when the client has gone: the log shows what the fake answered.
    send(201, answer);
  }, state.fake.submitDelayMs);
  state.timers.add(timer);
}
