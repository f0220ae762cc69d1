/**
 * The fal fake's queue server (queue.fal.run): every request is logged, the key is checked first,
 * then `POST /{endpoint id}` submits and `/{owner}/{alias}/requests/{id}[/status|/cancel]`
 * (no endpoint sub-path, as fal serves them) reads status, result or cancels.
 *
 * As on the live queue, the input is validated when the job runs, not at submit: a bad input is
 * accepted, reaches COMPLETED, and its result is fal's 422 (TanStack/ai PR #396 saw exactly this).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, sendJson } from '../http.ts';
import type { FakeJob } from '../video/control.ts';
import { DEFAULT_SHAPE, mp4Seconds, type FakeVideoShape } from '../video/shape.ts';
import { endpointKind, inputProblems, readImage, readVideo } from './request-body.ts';
import { outcomeOf, phaseOf, VEO_ENDPOINTS, type FalState, type Job } from './state.ts';
import type { FalRequestLog } from './types.ts';

export const POLICY_MESSAGE = 'The content was flagged by a content checker.';
export const FAILURE_MESSAGE =
  'The video generation service returned an error: the model could not generate the video.';

type Send = (status: number, body: unknown, headers?: Record<string, string>) => void;

const docs = (type: string) => `https://docs.fal.ai/errors#${type}`;

function urlsOf(state: FalState, job: Job) {
  const base = `${state.fake.url}/${job.app}/requests/${job.view.requestId}`;
  return { response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel` };
}

export async function handleQueue(
  state: FalState,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const auth = req.headers.authorization;
  const entry: FalRequestLog = {
    server: 'queue',
    method: req.method ?? 'GET',
    path: `${url.pathname}${url.search}`,
    status: 0,
    authorization: typeof auth === 'string' ? auth : null,
  };
  state.fake.requests.push(entry);
  const send: Send = (status, body, headers = {}) => {
    entry.status = status;
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    sendJson(res, status, body);
  };
  const raw = req.method === 'POST' ? await readBody(req) : '';

  if (entry.authorization === null) {
    return send(401, { detail: 'Missing authorization header' });
  }
  if (entry.authorization !== `Key ${state.fake.key}`) {
    return send(401, { detail: 'No user found for Key ID and Secret' });
  }

  const request = /^\/([^/]+\/[^/]+)\/requests\/([^/]+)(\/status|\/cancel)?$/.exec(url.pathname);
  if (request) {
    const [, app, id = '', action] = request;
    const job = state.jobs.get(id);
    if (!job || job.app !== app) return send(404, { detail: `Request ${id} not found` });
    if (action === '/status' && req.method === 'GET') return status(state, job, send);
    if (action === '/cancel' && req.method === 'PUT') return cancel(state, job, send);
    if (action === undefined && req.method === 'GET') return result(state, job, send);
    return send(405, { detail: 'Method Not Allowed' });
  }
  if (req.method === 'POST') return submit(state, url, raw, entry, send);
  return send(404, { detail: 'Not Found' });
}

function submit(state: FalState, url: URL, raw: string, entry: FalRequestLog, send: Send): void {
  const endpoint = decodeURIComponent(url.pathname.slice(1));
  if (!VEO_ENDPOINTS.has(endpoint)) {
    return send(404, { detail: `Application '${endpoint}' not found` });
  }
  const failure = state.submitFailures.shift();
  if (failure) {
    if (failure.status === 429) {
      const headers: Record<string, string> =
        failure.retryAfterSeconds === undefined
          ? {}
          : { 'retry-after': String(failure.retryAfterSeconds) };
      return send(429, { detail: 'Too many concurrent requests for this key.' }, headers);
    }
    return send(
      failure.status,
      {
        detail: 'No runner could be allocated to handle the request.',
        error_type: 'runner_scheduling_failure',
      },
      { 'x-fal-error-type': 'runner_scheduling_failure' },
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return send(400, { detail: 'The request body is not valid JSON.' });
  }
  entry.body = body;
  const input = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const prompt = typeof input.prompt === 'string' ? input.prompt : '';
  const firstFrame = input.image_url ?? input.first_frame_url;
  const image = firstFrame !== undefined ? readImage(firstFrame) : undefined;
  const webhookUrl = url.searchParams.get('fal_webhook') ?? undefined;
  const view: FakeJob = {
    requestId: randomUUID(),
    model: endpoint,
    prompt,
    ...(image && !('loc' in image) ? { image } : {}),
    ...(webhookUrl ? { webhookUrl } : {}),
    polls: 0,
    canceled: false,
  };
  const job: Job = {
    view,
    app: endpoint.split('/').slice(0, 2).join('/'),
    outcome: outcomeOf(prompt),
    problems: inputProblems(endpoint, body),
    prompt,
    shape: shapeOf(endpoint, input),
  };
  state.jobs.set(view.requestId, job);
  state.fake.jobs.push(view);
  if (state.stalls > 0) {
    // Taken and never answered (status stays 0): the connection stays open until the client
    // gives up, or the fake closes.
    state.stalls -= 1;
    return;
  }
  const phase = phaseOf(state, job);
  return send(200, {
    status: 'IN_QUEUE',
    request_id: view.requestId,
    ...urlsOf(state, job),
    queue_position: phase.status === 'IN_QUEUE' ? phase.queue_position : 0,
  });
}

/** The video a valid input makes: its aspect ratio, resolution and length (an extension: the
 * source followed by the 7 s asked for, in one clip). */
function shapeOf(endpoint: string, input: Record<string, unknown>): FakeVideoShape {
  const seconds = typeof input.duration === 'string' ? Number.parseInt(input.duration, 10) : 8;
  let total = Number.isFinite(seconds) ? seconds : DEFAULT_SHAPE.seconds;
  if (endpointKind(endpoint) === 'extend-video') {
    const source = readVideo(input.video_url);
    total += Buffer.isBuffer(source) ? (mp4Seconds(source) ?? 0) : 0;
  }
  return {
    aspectRatio: input.aspect_ratio === '9:16' ? '9:16' : '16:9',
    resolution: input.resolution === '1080p' ? '1080p' : '720p',
    seconds: Math.round(total),
  };
}

function status(state: FalState, job: Job, send: Send): void {
  // A cancelled job goes no further; what fal reports for it afterwards is not documented.
  if (!job.view.canceled) job.view.polls += 1;
  const phase = phaseOf(state, job);
  return send(200, { ...phase, request_id: job.view.requestId, ...urlsOf(state, job) });
}

function cancel(state: FalState, job: Job, send: Send): void {
  const phase = phaseOf(state, job);
  if (phase.status === 'COMPLETED') return send(400, { status: 'ALREADY_COMPLETED' });
  job.view.canceled = true;
  if (phase.status === 'IN_QUEUE') return send(200, { status: 'OK' });
  return send(202, { status: 'CANCELLATION_REQUESTED' });
}

/** What `GET response_url` answers for a job, also the webhook's payload. */
export async function resultOf(
  state: FalState,
  job: Job,
): Promise<{ status: number; body: unknown; headers: Record<string, string> }> {
  const noRetry = { 'x-fal-retryable': 'false' };
  if (job.problems.length > 0)
    return { status: 422, body: { detail: job.problems }, headers: noRetry };
  if (job.outcome === 'policy') {
    const detail = [
      {
        loc: ['body', 'prompt'],
        msg: POLICY_MESSAGE,
        type: 'content_policy_violation',
        url: docs('content_policy_violation'),
        input: job.prompt,
        categories: ['violence'],
      },
    ];
    return { status: 422, body: { detail }, headers: noRetry };
  }
  if (job.outcome === 'fail') {
    const detail = [
      {
        loc: ['body'],
        msg: FAILURE_MESSAGE,
        type: 'downstream_service_error',
        url: docs('downstream_service_error'),
      },
    ];
    // fal marks a downstream failure as worth retrying: a new submit, never a refetch.
    return { status: 500, body: { detail }, headers: { 'x-fal-retryable': 'true' } };
  }
  const video = await state.fake.video(job.shape);
  const fileId = randomBytes(8).toString('hex');
  state.files.set(fileId, job.view.requestId);
  return {
    status: 200,
    body: {
      video: {
        url: (state.fake.resultUrl ?? ((url: string) => url))(
          `${state.fake.cdnUrl}/files/${fileId}/output.mp4`,
        ),
        content_type: 'video/mp4',
        file_name: 'output.mp4',
        file_size: video.length,
      },
    },
    headers: {},
  };
}

async function result(state: FalState, job: Job, send: Send): Promise<void> {
  if (phaseOf(state, job).status !== 'COMPLETED') {
    return send(400, { detail: 'Request is still in progress' });
  }
  const { status: code, body, headers } = await resultOf(state, job);
  return send(code, body, headers);
}
