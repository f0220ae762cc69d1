/**
 * Webhook secrets and signatures, per Standard Webhooks (https://www.standardwebhooks.com/): a
 * secret is `whsec_` + base64 of 24 random bytes, and a signature is `v1,` + base64 of
 * HMAC-SHA256(secret bytes, `${webhook-id}.${webhook-timestamp}.${body}`). Signing goes through
 * the `standardwebhooks` package, the reference implementation receivers verify with, so what we
 * send is what their library computes.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_SECRET_PREFIX } from '../../../shared/public-api.ts';

/** A new signing secret, shown to its owner once. */
export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
}

/**
 * The `webhook-signature` header: one `v1,<base64>` per secret, space-separated. After a rotation
 * both the new and the previous secret sign, so a receiver that still has either verifies.
 */
export function signatureHeader(
  secrets: readonly string[],
  eventId: string,
  at: Date,
  payload: string,
): string {
  return secrets.map((secret) => new Webhook(secret).sign(eventId, at, payload)).join(' ');
}
