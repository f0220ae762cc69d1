/**
 * The local checkout page's form token, read as a browser submits it (small enough for the e2e,
 * resilience and bench clients to import).
 */
import { LOCAL_CHECKOUT_TOKEN_FIELD } from '../../server/domains/billing/local-checkout-guard.ts';

export { LOCAL_CHECKOUT_TOKEN_FIELD };

/** The form token in a local checkout page's HTML; '' when the page has none (paid, cancelled). */
export function localCheckoutToken(html: string): string {
  return new RegExp(`name="${LOCAL_CHECKOUT_TOKEN_FIELD}" value="([^"]*)"`).exec(html)?.[1] ?? '';
}

/** The url-encoded body the page's Pay or Cancel form posts. */
export function localCheckoutForm(html: string): string {
  return new URLSearchParams({ [LOCAL_CHECKOUT_TOKEN_FIELD]: localCheckoutToken(html) }).toString();
}
