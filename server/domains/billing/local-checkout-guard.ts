/**
 * The local checkout's Pay and Cancel forms are honoured only when they come from the checkout
 * page itself (issue 16, finding 15): the page carries a per-checkout form token, and a post the
 * browser marks as coming from another site is refused even with it.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** The hidden field of the page's forms that carries the token. */
export const LOCAL_CHECKOUT_TOKEN_FIELD = 'checkout_token';

export interface LocalCheckoutGuard {
  /** The form token of one checkout's page: an HMAC of its session id. */
  tokenFor(sessionId: string): string;
  /** Why a post to a checkout's form is refused (for the log); null when it may go ahead. */
  refusal(
    sessionId: string,
    headers: IncomingHttpHeaders,
    form: Record<string, string>,
  ): string | null;
}

/**
 * A guard for the site at `publicSiteUrl`. The secret is made at start-up and kept in memory:
 * the local checkout exists in local mode only, and after a restart the buyer reloads the page
 * for a fresh token.
 */
export function createLocalCheckoutGuard(
  publicSiteUrl: string,
  secret: Buffer = randomBytes(32),
): LocalCheckoutGuard {
  // Compared with the browser's Origin: the configured site, never the request's Host.
  const siteOrigin = new URL(publicSiteUrl).origin;
  const tokenFor = (sessionId: string) =>
    createHmac('sha256', secret).update(`local-checkout:${sessionId}`).digest('base64url');

  return {
    tokenFor,
    refusal(sessionId, headers, form) {
      if (headers['sec-fetch-site'] === 'cross-site') return 'cross-site post';
      const origin = headers.origin;
      if (origin !== undefined && origin !== siteOrigin) return `foreign origin ${origin}`;
      const sent = Buffer.from(form[LOCAL_CHECKOUT_TOKEN_FIELD] ?? '');
      const expected = Buffer.from(tokenFor(sessionId));
      if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) {
        return sent.length === 0 ? 'no form token' : 'wrong form token';
      }
      return null;
    },
  };
}
