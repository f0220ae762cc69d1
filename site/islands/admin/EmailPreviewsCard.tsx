/**
 * Email previews (issue 37, item 3): each receipt email in each language, rendered by the server
 * from sample data exactly as a customer receives it. The HTML part shows in a sandboxed frame
 * (no script, no form, its own origin); the plain-text part as text. Loaded when asked for.
 */
import { useState } from 'react';
import {
  RECEIPT_KINDS,
  type EmailPreview,
  type ReceiptKind,
} from '../../../shared/api/email-previews.ts';
import { LOCALES, type Locale } from '../../../shared/locales.ts';
import { apiErrorMessage } from '../../lib/api/http.ts';
import { getEmailPreviews } from '../../lib/api/admin.ts';

const KIND_LABELS: Record<ReceiptKind, string> = {
  payment: 'Payment receipt',
  renewal: 'Renewal receipt',
  refund: 'Refund',
  dispute_won: 'Dispute won',
  dispute_lost: 'Dispute lost',
};
const LOCALE_LABELS: Record<Locale, string> = { en: 'English', 'zh-CN': '中文（简体）' };

type State =
  | { status: 'idle' | 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'loaded'; previews: EmailPreview[] };

export default function EmailPreviewsCard() {
  const [state, setState] = useState<State>({ status: 'idle' });
  const [kind, setKind] = useState<ReceiptKind>('payment');
  const [locale, setLocale] = useState<Locale>('en');
  const [part, setPart] = useState<'html' | 'text'>('html');

  const load = async () => {
    setState({ status: 'loading' });
    try {
      setState({ status: 'loaded', previews: await getEmailPreviews() });
    } catch (error) {
      console.error('[admin] email previews failed', error);
      setState({
        status: 'failed',
        message: apiErrorMessage(error, 'The previews could not load. Please try again.'),
      });
    }
  };
  const loading = state.status === 'loading';
  const shown =
    state.status === 'loaded'
      ? state.previews.find((p) => p.kind === kind && p.locale === locale)
      : undefined;

  return (
    <article className="admin-card admin-card--wide email-previews" aria-busy={loading}>
      <div className="admin-card__head">
        <h3 className="admin-card__label" id="email-previews-title">
          Email previews
        </h3>
        {state.status !== 'loaded' && (
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() => void load()}
            disabled={loading}
          >
            {loading && <span className="spinner spinner-sm" aria-hidden="true" />}
            {loading ? 'Loading…' : 'Show email previews'}
          </button>
        )}
      </div>
      <div aria-live="polite">
        {(state.status === 'idle' || state.status === 'loading') && (
          <p className="admin-card__hint">
            The receipt emails customers get after a payment, a renewal, a refund or a dispute’s
            outcome, in each language, from sample data.
          </p>
        )}
        {state.status === 'failed' && (
          <p className="admin-card__hint admin-text-bad" role="alert">
            {state.message}
          </p>
        )}
      </div>
      {state.status === 'loaded' && (
        <>
          <div className="admin-toolbar email-previews__controls">
            <label className="admin-toolbar__field">
              <span>Email</span>
              <select
                className="input select admin-select"
                value={kind}
                onChange={(event) => setKind(event.target.value as ReceiptKind)}
              >
                {RECEIPT_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {KIND_LABELS[k]}
                  </option>
                ))}
              </select>
            </label>
            <label className="admin-toolbar__field">
              <span>Language</span>
              <select
                className="input select admin-select"
                value={locale}
                onChange={(event) => setLocale(event.target.value as Locale)}
              >
                {LOCALES.map((l) => (
                  <option key={l} value={l}>
                    {LOCALE_LABELS[l]}
                  </option>
                ))}
              </select>
            </label>
            <fieldset className="email-previews__parts">
              <legend>Part</legend>
              {(['html', 'text'] as const).map((p) => (
                <label key={p}>
                  <input
                    type="radio"
                    name="email-preview-part"
                    value={p}
                    checked={part === p}
                    onChange={() => setPart(p)}
                  />
                  {p === 'html' ? 'HTML' : 'Plain text'}
                </label>
              ))}
            </fieldset>
          </div>
          {shown && (
            <>
              <p className="admin-card__hint">
                Subject: <strong lang={shown.locale}>{shown.subject}</strong>
              </p>
              {part === 'html' ? (
                <iframe
                  className="email-previews__frame"
                  title={`${KIND_LABELS[shown.kind]}, ${LOCALE_LABELS[shown.locale]}: HTML part`}
                  sandbox=""
                  srcDoc={shown.html}
                />
              ) : (
                <pre className="email-previews__text" lang={shown.locale} tabIndex={0}>
                  {shown.text}
                </pre>
              )}
            </>
          )}
        </>
      )}
    </article>
  );
}
