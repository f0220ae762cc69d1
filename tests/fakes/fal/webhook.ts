/**
 * fal's completion webhook for a fake job: the body fal POSTs to `fal_webhook`
 * (`{request_id, gateway_request_id, status: "OK"|"ERROR", payload, error?}`) and its Ed25519
 * signature over `request_id \n user_id \n timestamp \n hex(sha256(body))`, in the
 * `X-Fal-Webhook-*` headers (docs.fal.ai/model-apis/model-endpoints/webhooks).
 */
import { createHash, sign } from 'node:crypto';
import type { WebhookRequest } from '../../../server/domains/video/providers/types.ts';
import { resultOf } from './queue.ts';
import { newKeyPair, type FalState } from './state.ts';
import type { FalWebhookOptions } from './types.ts';

async function webhookBody(state: FalState, requestId: string): Promise<Record<string, unknown>> {
  const job = state.jobs.get(requestId);
  if (!job) throw new Error(`fal fake: no job ${requestId}`);
  if (job.outcome === 'hang') throw new Error(`fal fake: job ${requestId} never finishes`);
  const result = await resultOf(state, job);
  const base = { request_id: requestId, gateway_request_id: requestId };
  return result.status === 200
    ? { ...base, status: 'OK', payload: result.body }
    : {
        ...base,
        status: 'ERROR',
        error: `Invalid status code: ${result.status}`,
        payload: result.body,
      };
}

export async function signedWebhook(
  state: FalState,
  requestId: string,
  opts: FalWebhookOptions = {},
): Promise<WebhookRequest> {
  const body = await webhookBody(state, requestId);
  const signed = Buffer.from(JSON.stringify(body));
  const timestamp = String(Math.floor(state.now() / 1000) - (opts.stale ? 600 : 0));
  const hash = createHash('sha256').update(signed).digest('hex');
  const message = Buffer.from(`${requestId}\n${state.userId}\n${timestamp}\n${hash}`);
  const key = opts.foreignKey ? newKeyPair().privateKey : state.signingKey.privateKey;
  const signature = sign(null, message, key).toString('hex');
  // Tampering happens after signing: what an attacker who changed the body in transit sends.
  const rawBody = opts.tamper
    ? Buffer.from(
        JSON.stringify({
          ...body,
          status: 'OK',
          payload: { video: { url: 'https://evil.example/v.mp4' } },
        }),
      )
    : signed;
  return {
    headers: {
      'content-type': 'application/json',
      'x-fal-webhook-request-id': requestId,
      'x-fal-webhook-user-id': state.userId,
      'x-fal-webhook-timestamp': timestamp,
      'x-fal-webhook-signature': signature,
    },
    rawBody,
  };
}

/** POSTs the signed webhook to the job's `fal_webhook` URL; resolves the HTTP status. */
export async function deliverWebhook(
  state: FalState,
  requestId: string,
  opts: FalWebhookOptions = {},
): Promise<number> {
  const url = state.jobs.get(requestId)?.view.webhookUrl;
  if (!url) throw new Error(`fal fake: job ${requestId} asked for no webhook`);
  const { headers, rawBody } = await signedWebhook(state, requestId, opts);
  const res = await fetch(url, {
    method: 'POST',
    headers: headers as Record<string, string>,
    body: new Uint8Array(rawBody),
  });
  await res.body?.cancel();
  return res.status;
}
