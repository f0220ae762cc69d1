/**
 * The Veo fake's API server: every request is logged, the key is checked first as Google does,
 * then the path picks the operation or file endpoint.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, sendJson } from '../http.ts';
import { googleError, type Send } from './errors.ts';
import { downloadFile } from './files.ts';
import { pollOperation, submitOperation } from './operations.ts';
import type { VeoState } from './state.ts';
import type { VeoFakeRequest } from './types.ts';

export async function handleApi(
  state: VeoState,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const header = req.headers['x-goog-api-key'];
  const entry: VeoFakeRequest = {
    server: 'api',
    method: req.method ?? 'GET',
    path: `${url.pathname}${url.search}`,
    apiKey: typeof header === 'string' ? header : null,
    status: 0,
  };
  state.fake.requests.push(entry);
  const send: Send = (status, body) => {
    entry.status = status;
    sendJson(res, status, body);
  };
  const raw = req.method === 'POST' ? await readBody(req) : '';

  // Google checks the key before anything else: none is 403, a wrong one 400 API_KEY_INVALID.
  if (entry.apiKey === null) {
    return send(
      403,
      googleError(
        403,
        'PERMISSION_DENIED',
        "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
      ),
    );
  }
  if (entry.apiKey !== state.fake.apiKey) {
    return send(
      400,
      googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'API_KEY_INVALID',
          domain: 'googleapis.com',
          metadata: { service: 'generativelanguage.googleapis.com' },
        },
      ]),
    );
  }

  const submit = /^\/v1beta\/models\/([^/:]+):predictLongRunning$/.exec(url.pathname);
  if (submit) {
    if (req.method !== 'POST') return send(404, googleError(404, 'NOT_FOUND', 'Not found.'));
    return submitOperation(state, decodeURIComponent(submit[1] ?? ''), raw, entry, res, send);
  }

  const poll = /^\/v1beta\/(models\/[^/]+\/operations\/[^/]+)$/.exec(url.pathname);
  if (poll && req.method === 'GET') return pollOperation(state, poll[1] ?? '', res, send);

  const file = /^\/v1beta\/files\/([^/:]+):download$/.exec(url.pathname);
  if (file && req.method === 'GET')
    return downloadFile(state, file[1] ?? '', url, entry, res, send);

  return send(404, googleError(404, 'NOT_FOUND', 'Not found.'));
}
