/**
 * /account's billing section (issue 37, item 2), shown only to a user with billing history (a
 * payment or a subscription): "Manage billing" and the way to the payments and receipts page.
 * Nothing shows while the answer is pending or when it fails: the section is a shortcut, and the
 * pricing page's subscription box has the same action.
 */
import { useEffect, useId, useState } from 'react';
import { localizePath, type Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { getBillingSummary } from '../../lib/api/billing-portal.ts';
import ManageBilling from './ManageBilling.tsx';

export default function BillingSection({ locale }: { locale: Locale }) {
  const headingId = useId();
  const [provider, setProvider] = useState<'stripe' | 'local' | null>(null);

  useEffect(() => {
    let active = true;
    getBillingSummary().then(
      (summary) => {
        if (active && summary.has_billing_history) setProvider(summary.provider);
      },
      (error: unknown) => console.error('[billing] summary unavailable', error),
    );
    return () => {
      active = false;
    };
  }, []);

  if (!provider) return null;
  return (
    <section
      className="card account-section"
      aria-labelledby={headingId}
      data-testid="account-billing"
    >
      <h2 id={headingId}>{m.billing_account_heading(locale)}</h2>
      <p>{m.billing_account_text(locale)}</p>
      <div className="account-billing__actions">
        <ManageBilling locale={locale} className="btn btn-primary" />
        {/* Locally the portal is the payments page itself: one way there is enough. */}
        {provider === 'stripe' && (
          <a
            className="btn btn-secondary"
            href={localizePath('/account/billing', locale)}
            data-testid="account-billing-link"
          >
            {m.billing_account_history(locale)}
          </a>
        )}
      </div>
    </section>
  );
}
