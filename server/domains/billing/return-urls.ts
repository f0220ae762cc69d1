/**
 * Where a checkout sends the buyer back to. The address is always built from PUBLIC_SITE_URL:
 * never from the request's Host or proxy headers, which the sender chooses (issue 16, finding 7).
 * The client names a page of the site by its path; an address already on PUBLIC_SITE_URL is
 * accepted too, as it names the same page.
 */
import { badRequest } from '../../core/errors.ts';
import { msg } from '../../core/api-messages.ts';

/** The field names of the payment request that carry a return address. */
type ReturnUrlField = 'success_url' | 'cancel_url' | 'return_url';

/**
 * A path of this site: one leading '/', not '//' or '/\' (which browsers read as another host),
 * and no backslash, whitespace or control character (which browsers drop or rewrite).
 */
function isSitePath(path: string): boolean {
  const controlCharacter = [...path].some((c) => c.charCodeAt(0) < 0x20 || c === '\u007f');
  return /^\/(?![/\\])/.test(path) && !/[\\\s]/.test(path) && !controlCharacter;
}

/**
 * The absolute return address for a client-sent `value` of `field`: `{publicSiteUrl}{path}`.
 * The `{CHECKOUT_SESSION_ID}` placeholder stays literal (the provider fills it in), so the
 * address is joined as text, never re-serialized by `URL`.
 */
export function checkoutReturnUrl(
  field: ReturnUrlField,
  value: string,
  publicSiteUrl: string,
): string {
  const site = publicSiteUrl.replace(/\/+$/, '');
  const path = value.toLowerCase().startsWith(`${site.toLowerCase()}/`)
    ? value.slice(site.length)
    : value;
  const absolute = `${site}${path}`;
  if (!isSitePath(path) || new URL(absolute).origin !== new URL(site).origin) {
    throw badRequest(msg('billing.invalid_return_url', { field, site }), 'INVALID_RETURN_URL');
  }
  return absolute;
}

/** Both return addresses of a payment request, checked and made absolute. */
export function checkoutReturnUrls(
  request: { success_url: string; cancel_url: string },
  publicSiteUrl: string,
): { successUrl: string; cancelUrl: string } {
  return {
    successUrl: checkoutReturnUrl('success_url', request.success_url, publicSiteUrl),
    cancelUrl: checkoutReturnUrl('cancel_url', request.cancel_url, publicSiteUrl),
  };
}
