/**
 * The Vertex fake's four HTTP servers (four origins, as in production): the Vertex API, the OAuth
 * token endpoint, the Cloud Storage JSON API, and `elsewhere`, a host storage may redirect media
 * to. Every request is logged with its Authorization header so tests see where the token went.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readBody } from '../http.ts';
import { bearerOf, handleToken, unauthenticated } from './auth.ts';
import { googleError } from './errors.ts';
import { fetchOperation, submit } from './operations.ts';
import type { Send, VertexFakeRequest, VertexState } from './types.ts';

const API_PATH =
  /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/google\/models\/([^/:]+):(predictLongRunning|fetchPredictOperation)$/;
const MEDIA_PATH = /^\/storage\/v1\/b\/([^/]+)\/o\/([^/]+)$/;

function logged(
  state: VertexState,
  server: VertexFakeRequest['server'],
  req: IncomingMessage,
  res: ServerResponse,
): { entry: VertexFakeRequest; url: URL; send: Send } {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const entry: VertexFakeRequest = {
    server,
    method: req.method ?? 'GET',
    path: `${url.pathname}${url.search}`,
    status: 0,
    authorization: req.headers.authorization ?? null,
  };
  state.fake.requests.push(entry);
  const send: Send = (status, body, headers = {}) => {
    entry.status = status;
    res.statusCode = status;
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    if (typeof body === 'string' || Buffer.isBuffer(body)) {
      if (!res.hasHeader('content-type')) res.setHeader('content-type', 'text/plain');
      res.end(body);
      return;
    }
    if (!res.hasHeader('content-type')) {
      res.setHeader('content-type', 'application/json; charset=UTF-8');
    }
    res.end(JSON.stringify(body));
  };
  return { entry, url, send };
}

async function handleApi(state: VertexState, req: IncomingMessage, res: ServerResponse) {
  const { entry, url, send } = logged(state, 'api', req, res);
  const raw = await readBody(req);
  if (!bearerOf(state, req)) return unauthenticated(send);
  const match = API_PATH.exec(url.pathname);
  if (!match || req.method !== 'POST') {
    return send(
      404,
      googleError(404, 'NOT_FOUND', `The requested URL ${url.pathname} was not found.`),
    );
  }
  const [, project, location, model = '', method] = match;
  if (project !== state.fake.project || location !== state.fake.location) {
    return send(
      403,
      googleError(
        403,
        'PERMISSION_DENIED',
        `Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/projects/${project}/locations/${location}/publishers/google/models/${model}' (or it may not exist).`,
      ),
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(raw);
    entry.body = body;
  } catch {
    return send(400, googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.'));
  }
  if (method === 'predictLongRunning') return submit(state, model, body, res, send);
  return fetchOperation(state, model, body, send);
}

/** Cloud Storage's JSON error: `{ error: { code, message, errors: [...] } }`. */
const storageError = (code: number, reason: string, message: string) => ({
  error: { code, message, errors: [{ message, domain: 'global', reason }] },
});

async function handleStorage(state: VertexState, req: IncomingMessage, res: ServerResponse) {
  const { url, send } = logged(state, 'storage', req, res);
  const match = MEDIA_PATH.exec(url.pathname);
  if (!match || req.method !== 'GET') return send(404, 'Not Found');
  const key = `${decodeURIComponent(match[1] ?? '')}/${decodeURIComponent(match[2] ?? '')}`;
  if (!bearerOf(state, req)) {
    return send(
      401,
      storageError(
        401,
        'required',
        "Anonymous caller does not have storage.objects.get access to the Google Cloud Storage object. Permission 'storage.objects.get' denied on resource (or it may not exist).",
      ),
    );
  }
  const job = state.objects.get(key);
  if (!job) return send(404, storageError(404, 'notFound', `No such object: ${key}`));
  const video = await state.fake.video(job.shape);
  if (url.searchParams.get('alt') !== 'media') {
    return send(200, {
      kind: 'storage#object',
      bucket: match[1],
      name: key.slice(key.indexOf('/') + 1),
      contentType: 'video/mp4',
      size: String(video.length),
    });
  }
  if (state.fake.redirectMedia) {
    return send(302, '', {
      location: `${state.fake.elsewhereUrl}/media/${encodeURIComponent(key)}`,
    });
  }
  return send(200, video, { 'content-type': 'video/mp4' });
}

async function handleElsewhere(state: VertexState, req: IncomingMessage, res: ServerResponse) {
  const { url, send } = logged(state, 'elsewhere', req, res);
  const match = /^\/media\/([^/]+)$/.exec(url.pathname);
  const job = match ? state.objects.get(decodeURIComponent(match[1] ?? '')) : undefined;
  if (!job) return send(404, 'Not Found');
  return send(200, await state.fake.video(job.shape), { 'content-type': 'video/mp4' });
}

async function handleTokenServer(state: VertexState, req: IncomingMessage, res: ServerResponse) {
  const { url, send } = logged(state, 'token', req, res);
  const raw = await readBody(req);
  if (url.pathname !== '/token' || req.method !== 'POST') return send(404, 'Not Found');
  return handleToken(state, raw, send);
}

type Handler = (state: VertexState, req: IncomingMessage, res: ServerResponse) => Promise<void>;

function serve(state: VertexState, handler: Handler) {
  return createServer((req, res) => {
    handler(state, req, res).catch((err: unknown) => {
      if (!res.headersSent) {
        res.statusCode = 500;
        res.end(JSON.stringify(googleError(500, 'INTERNAL', String(err))));
      }
    });
  });
}

export const createServers = (state: VertexState) => ({
  api: serve(state, handleApi),
  token: serve(state, handleTokenServer),
  storage: serve(state, handleStorage),
  elsewhere: serve(state, handleElsewhere),
});
