/**
 * "Show deliveries" under an endpoint (or the webhook_url secret): the list loads only when it is
 * opened, and its code with it (Deliveries.tsx is a chunk of its own), so the page sends it to
 * nobody who does not look.
 */
import { lazy, Suspense, useId, useState } from 'react';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';

const Deliveries = lazy(() => import('./Deliveries.tsx'));

export default function DeliveriesToggle({
  endpointId,
  showUrl = false,
  locale,
}: {
  /** The endpoint's id, or the request secret's (its deliveries to requests' webhook_url). */
  endpointId: string;
  /** Each delivery names where it went (the request secret's go to many addresses). */
  showUrl?: boolean;
  locale: Locale;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <div className="apiaccess-deliveries-wrap">
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((was) => !was)}
        data-testid="apiaccess-deliveries-toggle"
      >
        {open ? m.apiaccess_deliveries_hide(locale) : m.apiaccess_deliveries_show(locale)}
      </button>
      <div id={panelId} hidden={!open}>
        {open && (
          <Suspense
            fallback={
              <p className="account-section__note" role="status">
                {m.apiaccess_deliveries_loading(locale)}
              </p>
            }
          >
            <Deliveries endpointId={endpointId} showUrl={showUrl} locale={locale} />
          </Suspense>
        )}
      </div>
    </div>
  );
}
