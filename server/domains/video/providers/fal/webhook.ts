/**
 * fal's webhook signature (docs.fal.ai/model-apis/model-endpoints/webhooks, "Verifying Your
 * Webhook"): an Ed25519 signature, hex in `X-Fal-Webhook-Signature`, over the UTF-8 message
 * `request_id \n user_id \n timestamp \n hex(sha256(raw body))`, taken from the headers
 * `X-Fal-Webhook-Request-Id`, `-User-Id` and `-Timestamp` (unix seconds). The public keys are a
 * JWKS (OKP / Ed25519, `x` base64url) that fal may rotate: cached for at most 24 h, every key
 * tried, and fetched again early when no cached key fits (at most once a minute, so forged
 * webhooks cannot make us hammer fal's key endpoint). Timestamps more than 300 s from our clock
 * are refused, so a captured webhook cannot be replayed later, and the route takes each delivery
 * (request id and timestamp) once. The signed user id must be our own fal account's
 * (FAL_USER_ID): another fal customer's webhooks, validly signed by fal, are not ours. A failed
 * key fetch (one attempt) is remembered for a minute: deliveries meanwhile get 503 and cost no
 * call (issue 34, finding 4).
 *
 * Node's crypto does Ed25519 itself; no dependency.
 */
import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { VideoProviderError } from '../errors.ts';
import type { ProviderHttp } from '../http.ts';
import type { WebhookNotice, WebhookRequest } from '../types.ts';
import { keyFailureMemory } from '../key-failures.ts';
import { parseJson } from './wire.ts';

const JWKS_MAX_AGE_MS = 24 * 60 * 60_000;
const JWKS_MIN_REFRESH_MS = 60_000;
const MAX_SKEW_S = 300;

const refuse = (why: string) =>
  new VideoProviderError(`fal webhook refused: ${why}`, { kind: 'rejected' });

function header(req: WebhookRequest, name: string): string | undefined {
  for (const [key, value] of Object.entries(req.headers)) {
    if (key.toLowerCase() !== name) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

/** The Ed25519 keys of a JWKS answer; others (a future key type) are skipped. */
function keysOf(answer: unknown): KeyObject[] {
  const keys = (answer as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) return [];
  const out: KeyObject[] = [];
  for (const jwk of keys as { kty?: unknown; crv?: unknown; x?: unknown }[]) {
    if (jwk?.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') continue;
    // fal's live JWKS has been seen padding `x` with '='; Node's JWK import wants it bare.
    const raw = Buffer.from(jwk.x, 'base64url');
    if (raw.length !== 32) continue;
    try {
      out.push(
        createPublicKey({
          key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') },
          format: 'jwk',
        }),
      );
    } catch {
      // Not a point on the curve: skipped like any key we cannot use.
    }
  }
  return out;
}

export function createWebhookVerifier(opts: {
  jwksUrl: string;
  http: ProviderHttp;
  now: () => number;
  /** FAL_USER_ID; without it no delivery is accepted. */
  userId: string | undefined;
}): (req: WebhookRequest) => Promise<WebhookNotice> {
  let cache: { keys: KeyObject[]; at: number } | null = null;
  let pending: Promise<KeyObject[]> | null = null;
  const failures = keyFailureMemory('fal JWKS', opts.now);

  /** Fetches the JWKS once for any number of webhooks arriving together. */
  function fetchKeys(): Promise<KeyObject[]> {
    const refusal = pending ? null : failures.refusal();
    if (refusal) return Promise.reject(refusal);
    pending ??= opts.http
      .json('JWKS fetch', opts.jwksUrl, { method: 'GET', once: true }, undefined)
      .then((answer) => {
        const keys = keysOf(answer);
        if (keys.length === 0) {
          // Nothing to check signatures with is fal's problem, not the sender's: answer so
          // the webhook is retried (fal retries for 2 h), and polling goes on meanwhile.
          throw new VideoProviderError('fal JWKS has no Ed25519 key', { kind: 'unavailable' });
        }
        cache = { keys, at: opts.now() };
        return keys;
      })
      .catch((err: unknown) => {
        failures.failed();
        // Whatever went wrong (a 404 included), it is not the sender's fault: not `rejected`,
        // so the route answers 5xx and fal delivers again later.
        if (err instanceof VideoProviderError && !err.retryable) {
          throw new VideoProviderError(err.message, {
            kind: 'unavailable',
            status: err.status,
            detail: err.detail,
            cause: err,
          });
        }
        throw err;
      })
      .finally(() => {
        pending = null;
      });
    return pending;
  }

  const signedBy = (keys: KeyObject[], message: Buffer, signature: Buffer) =>
    keys.some((key) => verify(null, message, key, signature));

  return async (req) => {
    const requestId = header(req, 'x-fal-webhook-request-id');
    const userId = header(req, 'x-fal-webhook-user-id');
    const timestamp = header(req, 'x-fal-webhook-timestamp');
    const signatureHex = header(req, 'x-fal-webhook-signature');
    if (!requestId || !userId || !timestamp || !signatureHex) {
      throw refuse('a signature header is missing');
    }
    if (!/^\d{1,12}$/.test(timestamp)) throw refuse('the timestamp is not unix seconds');
    if (Math.abs(opts.now() / 1000 - Number(timestamp)) > MAX_SKEW_S) {
      throw refuse(`the timestamp ${timestamp} is more than ${MAX_SKEW_S} s off`);
    }
    if (!/^[0-9a-f]{128}$/i.test(signatureHex)) throw refuse('the signature is not 64 hex bytes');
    if (!opts.userId) throw refuse('FAL_USER_ID is not set: no delivery can be checked as ours');
    if (userId !== opts.userId) throw refuse('the delivery is for another fal account');
    if (requestId.length > 200) throw refuse('the request id is too long');
    const signature = Buffer.from(signatureHex, 'hex');
    const bodyHash = createHash('sha256').update(req.rawBody).digest('hex');
    const message = Buffer.from(`${requestId}\n${userId}\n${timestamp}\n${bodyHash}`, 'utf8');

    const fresh = cache && opts.now() - cache.at < JWKS_MAX_AGE_MS ? cache : null;
    let ok = signedBy(fresh ? fresh.keys : await fetchKeys(), message, signature);
    // No cached key fits: fal may have rotated its keys since we fetched them.
    if (!ok && fresh && opts.now() - fresh.at >= JWKS_MIN_REFRESH_MS) {
      ok = signedBy(await fetchKeys(), message, signature);
    }
    if (!ok) throw refuse('the signature does not verify with any of fal’s keys');

    // The header's id is what was signed; the body must be about the same request.
    const body = parseJson(req.rawBody.toString('utf8')) as { request_id?: unknown } | undefined;
    if (typeof body !== 'object' || body === null) throw refuse('the body is not JSON');
    if (body.request_id !== requestId) {
      throw refuse('the body names another request than the signed header');
    }
    return { providerRequestId: requestId, deliveryId: `${requestId}.${timestamp}` };
  };
}
