/**
 * The rule for an address we will POST a user's webhook events to (issue 36, item 4): a
 * registered endpoint's URL, or a request's own `webhook_url`. It is checked when the address is
 * given, so a mistake is a 400 the developer sees at once, and again by the dispatcher's guarded
 * fetch at every send, where a name that now resolves to a private address (DNS rebinding) is a
 * failed attempt.
 *
 * - http or https, at most MAX_WEBHOOK_URL characters; https in production (local mode allows
 *   http, so a developer can point it at their machine);
 * - no user name or password in it (they would be sent in the clear to whoever logs the URL);
 * - its host resolves to public addresses only (core/outbound.ts isPublicAddress), unless its
 *   `host:port` is in OUTBOUND_ALLOW_HOSTS (tests' fakes).
 */
import dns from 'node:dns/promises';
import net from 'node:net';
import type { Config } from '../../config.ts';
import { badRequest } from '../../core/errors.ts';
import { msg, type ApiText } from '../../core/api-messages.ts';
import { isPublicAddress } from '../../core/outbound.ts';

/** The longest URL accepted (browsers' and proxies' common limit). */
const MAX_WEBHOOK_URL = 2000;

const invalid = (reason: ApiText) =>
  badRequest(msg('webhooks.url_invalid', { reason }), 'WEBHOOK_URL_INVALID');

/** The addresses a host name resolves to (a literal address is its own). */
async function addressesOf(host: string): Promise<string[]> {
  if (net.isIP(host) !== 0) return [host];
  try {
    const found = await dns.lookup(host, { all: true, verbatim: true });
    return found.map((a) => a.address);
  } catch {
    return [];
  }
}

/**
 * Throws 400 WEBHOOK_URL_INVALID, naming the reason, unless events may be sent to `raw`.
 * Returns the URL as given.
 */
export async function assertDeliverableUrl(
  config: Pick<Config, 'isProduction' | 'outbound'>,
  raw: string,
): Promise<string> {
  if (raw.length > MAX_WEBHOOK_URL) {
    throw invalid(msg('webhooks.url_too_long', { max: MAX_WEBHOOK_URL }));
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid(msg('webhooks.url_not_absolute'));
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw invalid(msg('webhooks.url_scheme'));
  }
  if (config.isProduction && url.protocol !== 'https:') {
    throw invalid(msg('webhooks.url_https_required'));
  }
  if (url.username !== '' || url.password !== '') {
    throw invalid(msg('webhooks.url_credentials'));
  }
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  if (config.outbound.allowHosts.has(`${url.hostname.toLowerCase()}:${port}`)) return raw;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = await addressesOf(host);
  if (addresses.length === 0) throw invalid(msg('webhooks.url_unresolved', { host }));
  const refused = addresses.find((address) => !isPublicAddress(address));
  if (refused !== undefined) {
    throw invalid(msg('webhooks.url_private', { host, address: refused }));
  }
  return raw;
}
