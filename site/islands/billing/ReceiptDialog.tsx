/**
 * One receipt, shown on the billing page (issue 37, item 2): the receipt route needs the session's
 * token, so its HTML is fetched and shown in a sandboxed frame (no script, no same-origin access)
 * inside a dialog, which Escape and Close dismiss; focus returns to the receipt's button.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { getReceiptHtml } from '../../lib/api/billing-portal.ts';
import { apiErrorMessage } from '../../lib/api/http.ts';
import Dialog from '../shared/Dialog.tsx';

interface ReceiptDialogProps {
  receipt: { number: string; url: string } | null;
  onClose: () => void;
  locale: Locale;
}

export default function ReceiptDialog({ receipt, onClose, locale }: ReceiptDialogProps) {
  const headingId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);
  /** What the last request answered, for the receipt it asked for (an older one is not shown). */
  const [loaded, setLoaded] = useState<{ url: string; html?: string; error?: string } | null>(null);
  const url = receipt?.url ?? null;
  const current = loaded && loaded.url === url ? loaded : null;
  const html = current?.html ?? null;
  const error = current?.error ?? null;

  useEffect(() => {
    if (!url) return;
    let active = true;
    getReceiptHtml(url).then(
      (text) => active && setLoaded({ url, html: text }),
      (failure: unknown) =>
        active &&
        setLoaded({ url, error: apiErrorMessage(failure, m.billing_receipt_failed(locale)) }),
    );
    return () => {
      active = false;
    };
  }, [url, locale]);

  return (
    <Dialog
      open={receipt !== null}
      busy={false}
      onClose={onClose}
      labelledBy={headingId}
      initialFocusRef={closeRef}
      className="billing-receipt-dialog"
      testId="billing-receipt"
    >
      <div className="billing-receipt__head">
        <h2 id={headingId}>{m.billing_receipt_title(locale, { number: receipt?.number ?? '' })}</h2>
        <button ref={closeRef} type="button" className="btn btn-secondary btn-sm" onClick={onClose}>
          {m.billing_receipt_close(locale)}
        </button>
      </div>
      {html !== null && (
        <iframe
          className="billing-receipt__frame"
          title={m.billing_receipt_title(locale, { number: receipt?.number ?? '' })}
          sandbox=""
          srcDoc={html}
        />
      )}
      {html === null && !error && (
        <p className="account-section__note" role="status">
          <span className="spinner spinner-sm" aria-hidden="true" /> {m.billing_loading(locale)}
        </p>
      )}
      {error && (
        <p className="account-section__error" role="alert">
          {error}
        </p>
      )}
    </Dialog>
  );
}
