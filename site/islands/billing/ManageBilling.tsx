/**
 * "Manage billing" (issue 37, item 2): asks the server for the billing portal (Stripe's customer
 * portal, or the local billing page in local mode), coming back to this page, and goes there.
 * The page it is on decides who sees it: the pricing page's subscription box (a subscriber always
 * has billing history) and /account when the user has any (BillingSection.tsx).
 */
import { useState } from 'react';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { openBillingPortal } from '../../lib/api/billing-portal.ts';
import { apiErrorMessage } from '../../lib/api/http.ts';

interface ManageBillingProps {
  locale: Locale;
  className?: string;
}

/** The page to come back to: this one, its query included. */
const currentPath = () => `${window.location.pathname}${window.location.search}`;

export default function ManageBilling({
  locale,
  className = 'btn btn-secondary',
}: ManageBillingProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onClick = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const { url } = await openBillingPortal(currentPath());
      window.location.assign(url);
    } catch (failure) {
      setError(apiErrorMessage(failure, m.billing_manage_failed(locale)));
      setBusy(false);
    }
  };

  return (
    <span className="manage-billing">
      <button
        type="button"
        className={className}
        aria-label={m.billing_manage_label(locale)}
        aria-busy={busy}
        onClick={() => void onClick()}
        data-testid="manage-billing"
      >
        {busy && <span className="spinner spinner-sm" aria-hidden="true" />}
        {busy ? m.billing_manage_opening(locale) : m.billing_manage(locale)}
      </button>
      <span className="manage-billing__error" role="alert">
        {error}
      </span>
    </span>
  );
}
