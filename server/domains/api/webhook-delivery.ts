/**
 * One attempt to deliver an event (Standard Webhooks): POST the event's stored body, byte for
 * byte, with `webhook-id` (the event's id: the same on every attempt), `webhook-timestamp` (this
 * attempt's unix seconds) and `webhook-signature` (one `v1,…` per secret that signs: the current
 * one, and the previous one during its overlap after a rotation).
 *
 * It goes through the guarded fetch (core/outbound.ts), so an address that is not public is
 * refused at the connection too, whatever the name resolved to when it was registered; redirects
 * are not followed (a 3xx is a failure: the receiver must give its final address). Only the start
 * of the answer is read, for the user's list of attempts.
 */
import { OutboundRefusedError } from '../../core/outbound.ts';
import site from '../../../content/site.json' with { type: 'json' };
import type { ClaimedDelivery } from './dispatch-repository.ts';
import { signatureHeader } from './webhook-signing.ts';

/** How long an endpoint has to answer. */
const WEBHOOK_TIMEOUT_MS = 15_000;
/** Characters of an answer kept with its attempt. */
const RESPONSE_CHARS = 1000;
/** Bytes read for them (a character is at most 4 bytes of UTF-8); the rest is not downloaded. */
const RESPONSE_BYTES = RESPONSE_CHARS * 4;

/** Names the product, as receivers' logs show it ("Veo3Studio-Webhooks/1"). */
const USER_AGENT = `${site.brand.replace(/\s+/g, '')}-Webhooks/1`;

/** What an attempt came back with. */
export interface AttemptResult {
  /** The HTTP status, or null when none came (refused, unreachable, timeout). */
  statusCode: number | null;
  /** The start of the answer, or why none came. */
  response: string;
  durationMs: number;
}

/** The secrets that sign at `now`: the current one, and the previous one within its overlap. */
function signingSecrets(delivery: ClaimedDelivery, now: Date): string[] {
  const previous =
    delivery.previousSecret &&
    delivery.previousSecretExpiresAt &&
    delivery.previousSecretExpiresAt > now
      ? [delivery.previousSecret]
      : [];
  return [delivery.secret, ...previous];
}

/**
 * Reads at most RESPONSE_BYTES of an answer and stops the transfer there (core/outbound.ts
 * readCapped would refuse a longer answer instead, and a long answer to a delivered event is
 * still a delivery).
 */
async function answerStart(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Buffer[] = [];
  let size = 0;
  while (size < RESPONSE_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(Buffer.from(value));
    size += value.byteLength;
  }
  await reader.cancel().catch(() => {});
  return Buffer.concat(chunks)
    .subarray(0, RESPONSE_BYTES)
    .toString('utf8')
    .slice(0, RESPONSE_CHARS);
}

/** Why no answer came, in words for the user's list of attempts. */
function failureText(err: unknown): string {
  if (err instanceof OutboundRefusedError) return `Refused: ${err.message}.`;
  const error = err as { name?: string; code?: string; message?: string; cause?: unknown };
  if (error.name === 'TimeoutError' || error.name === 'AbortError') {
    return `No answer within ${WEBHOOK_TIMEOUT_MS / 1000} seconds.`;
  }
  const cause = error.cause as { code?: string; message?: string } | undefined;
  const detail = error.code ?? cause?.code ?? error.message ?? String(err);
  return `Could not connect: ${detail}.`;
}

/** Sends `delivery` once, at `now`, through `fetchFn` (the guarded fetch). Never throws. */
export async function attemptDelivery(
  fetchFn: typeof fetch,
  delivery: ClaimedDelivery,
  now: Date,
): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const signal = AbortSignal.timeout(WEBHOOK_TIMEOUT_MS);
  try {
    const res = await fetchFn(delivery.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'webhook-id': delivery.eventId,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': signatureHeader(
          signingSecrets(delivery, now),
          delivery.eventId,
          now,
          delivery.payload,
        ),
      },
      body: delivery.payload,
      redirect: 'manual',
      signal,
    });
    const location = res.headers.get('location');
    const text = await answerStart(res).catch((err: unknown) => failureText(err));
    const response =
      res.status >= 300 && res.status < 400
        ? `Redirect to ${location ?? '(no Location)'} not followed: webhooks go to their final address.`
        : text;
    return { statusCode: res.status, response, durationMs: elapsed() };
  } catch (err) {
    return { statusCode: null, response: failureText(err), durationMs: elapsed() };
  }
}
