/**
 * Generated files for the Veo fake: `GET /v1beta/files/{id}:download?alt=media` needs the key and
 * redirects, like Google's, to a signed URL on the storage server (another origin, so tests can
 * see the key never goes there), which serves the video.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { flakyAnswer, googleError, type Send } from './errors.ts';
import { isFlaky, type VeoState } from './state.ts';
import type { VeoFakeRequest } from './types.ts';

/** The API's file endpoint: a redirect to a fresh signed storage path. */
export function downloadFile(
  state: VeoState,
  fileId: string,
  url: URL,
  entry: VeoFakeRequest,
  res: ServerResponse,
  send: Send,
): void {
  const job = state.files.get(fileId);
  if (!job || url.searchParams.get('alt') !== 'media') {
    return send(404, googleError(404, 'NOT_FOUND', 'Requested entity was not found.'));
  }
  if (job.scenario === 'downloadFails') {
    return send(404, googleError(404, 'NOT_FOUND', `File ${fileId} not found or expired.`));
  }
  if (isFlaky(job.scenario) && job.failures.download < state.fake.flakyFailures) {
    job.failures.download += 1;
    return flakyAnswer(state.fake, res, job.scenario, send);
  }
  // Google answers with a redirect to a short-lived signed storage URL that needs no key.
  const signedPath = `/videos/${fileId}.mp4?X-Goog-Signature=${randomBytes(16).toString('hex')}`;
  state.signed.add(signedPath);
  entry.status = 302;
  res.writeHead(302, { location: `${state.fake.storageUrl}${signedPath}` });
  res.end();
}

/** The storage server: the video for a signed path, GCS's AccessDenied for anything else. */
export function handleStorage(state: VeoState, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const header = req.headers['x-goog-api-key'];
  const entry: VeoFakeRequest = {
    server: 'storage',
    method: req.method ?? 'GET',
    path: `${url.pathname}${url.search}`,
    apiKey: typeof header === 'string' ? header : null,
    status: 200,
  };
  state.fake.requests.push(entry);
  if (req.method !== 'GET' || !state.signed.has(entry.path)) {
    // What GCS says to an unsigned or tampered URL.
    entry.status = 403;
    res.writeHead(403, { 'content-type': 'application/xml; charset=UTF-8' });
    res.end(
      "<?xml version='1.0' encoding='UTF-8'?><Error><Code>AccessDenied</Code><Message>Access denied.</Message></Error>",
    );
    return;
  }
  const { video } = state.fake;
  res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(video.length) });
  res.end(video);
}
