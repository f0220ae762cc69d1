/**
 * Replicate's webhook signatures: Standard Webhooks (https://www.standardwebhooks.com/, as
 * Replicate documents at replicate.com/docs/topics/webhooks/verify-webhook and implements in
 * replicate-javascript 1.4.0 `validateWebhook`, lib/util.js):
 * - headers `webhook-id`, `webhook-timestamp` (unix seconds), `webhook-signature` (one or more
 *   space-separated `v1,<base64 HMAC>`, several while a secret rotates);
 * - the HMAC-SHA256 is over `${webhook-id}.${webhook-timestamp}.${raw body}`, keyed with the
 *   base64-decoded secret after its `whsec_` prefix.
 * Unlike the JS client we compare in constant time and refuse a timestamp more than 5 minutes
 * off our clock (the Standard Webhooks replay window), which the client leaves to the caller.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { VideoProviderError } from '../errors.ts';
import type { WebhookNotice, WebhookRequest } from '../types.ts';

const TOLERANCE_MS = 5 * 60_000;

function header(req: WebhookRequest, name: string): string | undefined {
  for (const [key, value] of Object.entries(req.headers)) {
    if (key.toLowerCase() !== name) continue;
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string' && first !== '') return first;
  }
  return undefined;
}

const refuse = (message: string) =>
  new VideoProviderError(`Replicate webhook refused: ${message}`, { kind: 'rejected' });

/** The signing key inside a `whsec_…` secret. */
export function webhookKey(secret: string): Buffer {
  const key = Buffer.from(secret.trim().replace(/^whsec_/, ''), 'base64');
  if (key.length === 0) throw new Error('Replicate: the webhook secret is empty or not base64');
  return key;
}

/** The `v1,<base64>` signature of a delivery. */
function signWebhook(key: Buffer, id: string, timestamp: string, rawBody: Buffer): string {
  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), rawBody]);
  return `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
}

/**
 * The signature headers of a delivery, or `rejected` when one is missing, unreadable or out of
 * the replay window: checked before the key is fetched, so a request that cannot be a delivery
 * costs no call to Replicate (issue 34, finding 4).
 */
export function webhookHeaders(req: WebhookRequest, nowMs: number) {
  const id = header(req, 'webhook-id');
  const timestamp = header(req, 'webhook-timestamp');
  const signatures = header(req, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw refuse('missing webhook-id/-timestamp/-signature');
  if (id.length > 200 || !/^[\w.:-]+$/.test(id)) throw refuse('unreadable webhook-id');
  if (!/^\d{1,12}$/.test(timestamp)) throw refuse('unreadable webhook-timestamp');
  if (Math.abs(nowMs - Number(timestamp) * 1000) > TOLERANCE_MS) {
    throw refuse(`webhook-timestamp ${timestamp} is more than 5 minutes off our clock`);
  }
  if (!/^v1,[A-Za-z0-9+/=]{40,}( v1,[A-Za-z0-9+/=]{40,})*$/.test(signatures.trim())) {
    throw refuse('unreadable webhook-signature');
  }
  return { id, timestamp, signatures };
}

/**
 * Checks one delivery with `key`; returns what it is about, or throws `rejected` (missing
 * headers, stale or future timestamp, no matching signature, a body that is not a prediction).
 */
export function verifyWebhook(req: WebhookRequest, key: Buffer, nowMs: number): WebhookNotice {
  const { id, timestamp, signatures } = webhookHeaders(req, nowMs);

  const expected = Buffer.from(signWebhook(key, id, timestamp, req.rawBody).slice(3), 'base64');
  const matches = signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw refuse('no signature matches');

  let body: unknown;
  try {
    body = JSON.parse(req.rawBody.toString('utf8'));
  } catch {
    throw refuse('the body is not JSON');
  }
  const predictionId = (body as { id?: unknown } | null)?.id;
  if (typeof predictionId !== 'string' || predictionId === '') {
    throw refuse('the body is not a prediction');
  }
  return { providerRequestId: predictionId, deliveryId: id };
}
