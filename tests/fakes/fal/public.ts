/**
 * fal's two public hosts, each its own server (origin) in the fake: the CDN that serves results
 * (v3.fal.media: unauthenticated URLs), and the REST host with the webhook keys
 * (rest.alpha.fal.ai/.well-known/jwks.json). Both log the Authorization header they get, so tests
 * can check our key never reaches them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from '../http.ts';
import type { FalState } from './state.ts';
import type { FalRequestLog } from './types.ts';

function logged(state: FalState, server: 'cdn' | 'rest', req: IncomingMessage) {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const auth = req.headers.authorization;
  const entry: FalRequestLog = {
    server,
    method: req.method ?? 'GET',
    path: `${url.pathname}${url.search}`,
    status: 0,
    authorization: typeof auth === 'string' ? auth : null,
  };
  state.fake.requests.push(entry);
  return { url, entry };
}

export async function handleCdn(
  state: FalState,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { url, entry } = logged(state, 'cdn', req);
  const file = /^\/files\/([0-9a-f]+)\/output\.mp4$/.exec(url.pathname);
  const job = state.jobs.get(state.files.get(file?.[1] ?? '') ?? '');
  if (req.method !== 'GET' || !file || !job) {
    entry.status = 404;
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('Not Found');
    return;
  }
  const video = await state.fake.video(job.shape);
  entry.status = 200;
  res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(video.length) });
  res.end(video);
}

/** The JWKS as fal serves it: OKP/Ed25519 keys, `x` base64url (padded, as fal's live one is). */
export function handleRest(state: FalState, req: IncomingMessage, res: ServerResponse): void {
  const { url, entry } = logged(state, 'rest', req);
  if (req.method !== 'GET' || url.pathname !== '/.well-known/jwks.json') {
    entry.status = 404;
    return sendJson(res, 404, { detail: 'Not Found' });
  }
  const jwk = (key: typeof state.decoyKey) => {
    const { x = '' } = key.export({ format: 'jwk' });
    const padded = x.padEnd(Math.ceil(x.length / 4) * 4, '=');
    return { kty: 'OKP', crv: 'Ed25519', x: padded };
  };
  entry.status = 200;
  return sendJson(res, 200, { keys: [jwk(state.decoyKey), jwk(state.signingKey.publicKey)] });
}
