/**
 * Generated files for the Gemini fake: `GET /v1beta/files/{id}:download?alt=media` needs the key
 * (checked by api.ts) and redirects, like Google's, to a short-lived signed URL on the storage
 * server: another origin, so tests can see the key never goes there.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { googleError, type Send } from './errors.ts';
import { headerOf, logRequest } from '../http.ts';
import type { GeminiState } from './state.ts';
import type { GeminiRequestLog } from './types.ts';

/** The API's file route: a redirect to a fresh signed storage path. */
export function downloadFile(
  state: GeminiState,
  fileId: string,
  url: URL,
  entry: GeminiRequestLog,
  res: ServerResponse,
  send: Send,
): void {
  if (!state.files.has(fileId) || url.searchParams.get('alt') !== 'media') {
    return send(404, googleError(404, 'Requested entity was not found.'));
  }
  const signedPath = `/videos/${fileId}.mp4?X-Goog-Signature=${randomBytes(16).toString('hex')}`;
  state.signed.add(signedPath);
  entry.status = 302;
  res.writeHead(302, { location: `${state.fake.storageUrl}${signedPath}` });
  res.end();
}

/** The storage server: the video for a signed path, GCS's AccessDenied for anything else. */
export async function handleStorage(
  state: GeminiState,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { entry } = logRequest<GeminiRequestLog>(state.fake.requests, req, res, {
    server: 'storage',
    apiKey: headerOf(req, 'x-goog-api-key'),
  });
  entry.status = 200;
  if (req.method !== 'GET' || !state.signed.has(entry.path)) {
    entry.status = 403;
    res.writeHead(403, { 'content-type': 'application/xml; charset=UTF-8' });
    res.end(
      "<?xml version='1.0' encoding='UTF-8'?><Error><Code>AccessDenied</Code><Message>Access denied.</Message></Error>",
    );
    return;
  }
  const fileId = /^\/videos\/([0-9a-f]+)\.mp4/.exec(entry.path)?.[1] ?? '';
  const video = await state.fake.video(state.files.get(fileId)?.shape);
  res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(video.length) });
  res.end(video);
}
