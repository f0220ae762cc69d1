/** Small pieces the sections of /account/api share: dates, a state label, loading, a failed load. */
import type { ReactNode } from 'react';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { apiErrorMessage } from '../../lib/api/http.ts';
import { textAround } from '../../lib/format.ts';
import { formatWhen } from './format.ts';

/** A moment as the page's language writes it, machine-readable too. */
export function When({ iso, locale }: { iso: string; locale: Locale }) {
  return <time dateTime={iso}>{formatWhen(iso, locale)}</time>;
}

/** A sentence with a date in it (`message` places it), the date as a <time>. */
export function Dated({
  iso,
  message,
  locale,
}: {
  iso: string;
  message: (date: string) => string;
  locale: Locale;
}) {
  const [before, after] = textAround(message);
  return (
    <>
      {before}
      <When iso={iso} locale={locale} />
      {after}
    </>
  );
}

export type Tone = 'good' | 'warn' | 'bad' | 'neutral';

/** A state in words with its colour (the words carry it; the colour only repeats it). */
export function StateBadge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return <span className={`badge apiaccess-badge apiaccess-badge--${tone}`}>{children}</span>;
}

/** While a form's code loads (the forms are chunks of their own). */
export function FormLoading({ locale }: { locale: Locale }) {
  return (
    <p className="account-section__note" role="status">
      <span className="spinner spinner-sm" aria-hidden="true" /> {m.apiaccess_loading(locale)}
    </p>
  );
}

/** A list that did not load: the server's words (or ours) and a way to try again. */
export function LoadFailed({
  error,
  onRetry,
  locale,
}: {
  error: unknown;
  onRetry: () => void;
  locale: Locale;
}) {
  return (
    <div className="apiaccess-failed">
      <p className="account-section__error" role="alert">
        {apiErrorMessage(error, m.apiaccess_load_failed(locale))}
      </p>
      <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry}>
        {m.apiaccess_retry(locale)}
      </button>
    </div>
  );
}
