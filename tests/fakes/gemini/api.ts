/**
 * The Gemini fake's API server: every request is logged, the key is checked first as Google does,
 * then the path picks the interactions or file route.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { headerOf, logRequest, readBody } from '../http.ts';
import { googleError, keyProblem } from './errors.ts';
import { downloadFile } from './files.ts';
import { cancelInteraction, createInteraction, getInteraction } from './interactions.ts';
import type { GeminiState } from './state.ts';
import type { GeminiRequestLog } from './types.ts';

export async function handleApi(
  state: GeminiState,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { url, entry, send } = logRequest<GeminiRequestLog>(state.fake.requests, req, res, {
    server: 'api',
    apiKey: headerOf(req, 'x-goog-api-key'),
  });
  const raw = req.method === 'POST' ? await readBody(req) : '';

  const refused = keyProblem(entry.apiKey, state.fake.apiKey);
  if (refused) return send(...refused);

  const notFound = () => send(404, googleError(404, 'Not found.'));
  const path = url.pathname;
  if (path === '/v1beta/interactions') {
    return req.method === 'POST' ? createInteraction(state, raw, entry, res, send) : notFound();
  }
  const cancel = /^\/v1beta\/interactions\/([^/]+)\/cancel$/.exec(path);
  if (cancel && req.method === 'POST') {
    return cancelInteraction(state, decodeURIComponent(cancel[1] ?? ''), send);
  }
  const get = /^\/v1beta\/interactions\/([^/]+)$/.exec(path);
  if (get && req.method === 'GET')
    return getInteraction(state, decodeURIComponent(get[1] ?? ''), send);
  const file = /^\/v1beta\/files\/([^/:]+):download$/.exec(path);
  if (file && req.method === 'GET')
    return downloadFile(state, file[1] ?? '', url, entry, res, send);
  return notFound();
}
