/**
 * "Manage billing" (issue 37, item 2). With Stripe, the signed-in user's Stripe customer gets a
 * customer portal session: invoices, receipts, the card, a plan change and cancelling live there,
 * and what the customer changes comes back as webhooks (webhooks.ts handles them like ours). In
 * local mode the address is our own billing page (/account/billing), which lists the same
 * payments from our tables. A user Stripe has no customer for has nothing to manage there yet:
 * a 409 that says so (the site shows the button only to users with billing history).
 */
import type { Db } from '../../core/db.ts';
import { conflict } from '../../core/errors.ts';
import { msg } from '../../core/api-messages.ts';
import { localizePath } from '../../../shared/pages.ts';
import { PATH_PREFIXES, type Locale } from '../../../shared/locales.ts';
import { hasBillingHistory } from './payment-history.ts';
import type { StripeProvider } from './providers/stripe.ts';
import * as repo from './repository.ts';
import { checkoutReturnUrl } from './return-urls.ts';

/** Where the customer goes back to when the request names no page: their account. */
const DEFAULT_RETURN_PATH = '/account';
/** The local billing page (site/views/BillingPage.astro). */
const LOCAL_BILLING_PATH = '/account/billing';

/** Stripe's portal language for ours (its `zh` is Simplified Chinese). */
const PORTAL_LOCALES: Record<Locale, string> = { en: 'en', 'zh-CN': 'zh' };

export function createPortal(deps: {
  db: Db;
  publicSiteUrl: string;
  stripe: Pick<StripeProvider, 'createPortalSession'> | null;
}) {
  const { db, publicSiteUrl, stripe } = deps;
  const site = publicSiteUrl.replace(/\/+$/, '');

  /**
   * The page to come back to: the request's `return_url` (checked like a checkout's: a page of
   * this site), else the page the request came from when it is one of ours, else /account.
   */
  function returnUrl(requested: string | undefined, referer: string | undefined): string | null {
    if (requested !== undefined) return checkoutReturnUrl('return_url', requested, site);
    if (!referer) return null;
    try {
      return checkoutReturnUrl('return_url', referer, site);
    } catch {
      // A referer from elsewhere (or none usable) is not an error: go back to the account.
      return null;
    }
  }

  /** The language of a page of this site, by its path's prefix (/zh/…: Chinese). */
  const pageLocale = (url: string): Locale => {
    const path = url.slice(site.length);
    return path === PATH_PREFIXES['zh-CN'] || path.startsWith(`${PATH_PREFIXES['zh-CN']}/`)
      ? 'zh-CN'
      : 'en';
  };

  return {
    /** The portal's address for `userId`, coming back to the checked return address. */
    async openPortal(
      userId: string,
      request: { returnUrl?: string | undefined; referer?: string | undefined; locale: Locale },
    ): Promise<{ url: string; provider: 'stripe' | 'local' }> {
      // The portal speaks the language of the page it returns to (else the request's).
      const returnPage = returnUrl(request.returnUrl, request.referer);
      const locale = returnPage ? pageLocale(returnPage) : request.locale;
      const back = returnPage ?? `${site}${localizePath(DEFAULT_RETURN_PATH, locale)}`;
      if (!stripe) {
        const page = new URL(`${site}${localizePath(LOCAL_BILLING_PATH, locale)}`);
        page.searchParams.set('return', back.slice(site.length) || '/');
        return { url: page.href, provider: 'local' };
      }
      const customerId = await repo.findStripeCustomer(db, userId);
      if (!customerId) throw conflict(msg('billing.no_billing_history'), 'NO_BILLING_HISTORY');
      const url = await stripe.createPortalSession({
        customerId,
        returnUrl: back,
        locale: PORTAL_LOCALES[locale],
      });
      return { url, provider: 'stripe' };
    },

    /** Whether the "Manage billing" action has anything to show this user. */
    async summary(userId: string) {
      const history = stripe
        ? (await repo.findStripeCustomer(db, userId)) !== null &&
          (await hasBillingHistory(db, userId))
        : await hasBillingHistory(db, userId);
      return { has_billing_history: history, provider: stripe ? 'stripe' : 'local' } as const;
    },
  };
}

export type Portal = ReturnType<typeof createPortal>;
