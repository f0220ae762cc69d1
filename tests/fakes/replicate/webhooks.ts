/**
 * The Replicate fake's webhooks and output host.
 *
 * Webhooks: the completion delivery of a prediction (its object as the body), signed per
 * Standard Webhooks as Replicate does: `webhook-id` (`msg_…`), `webhook-timestamp` (unix s),
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the base64
 * part of the `whsec_` secret. Signed here independently of the adapter's verifier.
 *
 * Output host (replicate.delivery): serves each finished video at its output URL while it is
 * kept (an hour on the fake's clock, or until `expireFiles`), 404 after.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebhookRequest } from '../../../server/domains/video/providers/types.ts';
import { headerOf, logRequest } from '../http.ts';
import { finish, predictionJson, refresh } from './predictions.ts';
import type { FakeState, ReplicateFakeRequest, WebhookOptions } from './types.ts';

export async function signedWebhook(
  state: FakeState,
  requestId: string,
  opts: WebhookOptions = {},
): Promise<WebhookRequest> {
  const job = state.jobs.get(requestId);
  if (!job) throw new Error(`Replicate fake: no prediction ${requestId}`);
  // The `completed` event is sent when the prediction ends: end it now (not a `[hang]` one).
  refresh(state, job);
  finish(state, job);
  const body = predictionJson(state, job);
  const raw = Buffer.from(JSON.stringify(body), 'utf8');
  const id = `msg_${randomBytes(14).toString('base64url')}`;
  // The real clock: the adapter checks timestamps against its own clock, not the fake's.
  const timestamp = String(Math.floor((Date.now() - (opts.stale ? 10 * 60_000 : 0)) / 1000));
  const key = Buffer.from(state.fake.webhookSecret.replace(/^whsec_/, ''), 'base64');
  const signature = createHmac('sha256', key)
    .update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), raw]))
    .digest('base64');
  // Tampered: same signature, but the output points elsewhere.
  const sent = opts.tamper
    ? Buffer.from(JSON.stringify({ ...body, output: 'https://attacker.example/video.mp4' }), 'utf8')
    : raw;
  return {
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': timestamp,
      'webhook-signature': `v1,${signature}`,
    },
    rawBody: sent,
  };
}

export async function deliverWebhook(
  state: FakeState,
  requestId: string,
  opts: WebhookOptions = {},
): Promise<number> {
  const url = state.jobs.get(requestId)?.webhookUrl;
  if (!url) throw new Error(`Replicate fake: prediction ${requestId} asked for no webhook`);
  const { headers, rawBody } = await signedWebhook(state, requestId, opts);
  const res = await fetch(url, {
    method: 'POST',
    headers: headers as Record<string, string>,
    body: new Uint8Array(rawBody),
    // Replicate does not follow redirects when delivering webhooks.
    redirect: 'manual',
  });
  await res.body?.cancel();
  return res.status;
}

/** The output host: `GET {deliveryUrl}{path}` of a finished video. */
export async function handleDelivery(
  state: FakeState,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { url, entry } = logRequest<ReplicateFakeRequest>(state.fake.requests, req, res, {
    server: 'delivery',
    authorization: headerOf(req, 'authorization'),
  });
  const job = state.files.get(url.pathname);
  if (job) refresh(state, job);
  if (!job || job.dataRemoved || (req.method !== 'GET' && req.method !== 'HEAD')) {
    entry.status = 404;
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
    return;
  }
  const video = await state.fake.video(job.shape);
  entry.status = 200;
  res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(video.length) });
  res.end(req.method === 'HEAD' ? undefined : video);
}
