/**
 * /account (issue 34): the signed-in user's account, a copy of their data (a JSON download), the
 * way to their API keys and webhooks (/account/api, issue 36) and closing the account, which
 * first lists what is lost and what is kept, then asks for a confirmation
 * (CloseAccountDialog.tsx). Once closed, the stored session is forgotten here: the server has
 * already revoked it.
 */
import { useEffect, useId, useState } from 'react';
import type { PublicUser } from '../../../shared/api/auth.ts';
import { localizePath, type Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { getAccountExport } from '../../lib/api/account.ts';
import { readApiError } from '../../lib/api/http.ts';
import { saveFile } from '../../lib/download.ts';
import { formatNumber } from '../../lib/format.ts';
import { BRAND } from '../../lib/site.ts';
import { $authReady, $user, clearSession } from '../../stores/auth.ts';
import { $credits, refreshCredits } from '../../stores/credits.ts';
import LoadingScreen from '../LoadingScreen.tsx';
import SignInLink from '../shared/SignInLink.tsx';
import { useHydratedStore } from '../shared/use-hydrated-store.ts';
import BillingSection from '../billing/BillingSection.tsx';
import CloseAccountDialog from './CloseAccountDialog.tsx';

const METHODS: Record<string, (locale: Locale) => string> = {
  google: m.account_settings_method_google,
  email: m.account_settings_method_email,
  local: m.account_settings_method_local,
};

/** The account's email, sign-in method and balance. */
function Profile({ user, credits, locale }: { user: PublicUser; credits: number; locale: Locale }) {
  const headingId = useId();
  return (
    <section className="card account-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{m.account_settings_profile_heading(locale)}</h2>
      <dl className="account-facts">
        <dt>{m.account_settings_email(locale)}</dt>
        <dd>{user.email}</dd>
        <dt>{m.account_settings_method(locale)}</dt>
        <dd>{METHODS[user.provider]?.(locale) ?? user.provider}</dd>
        <dt>{m.account_settings_credits(locale)}</dt>
        <dd>{formatNumber(credits, locale)}</dd>
      </dl>
    </section>
  );
}

/** The data export: fetched with the session, then saved as the file the server names. */
function ExportData({ locale }: { locale: Locale }) {
  const headingId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const download = async () => {
    if (busy) return;
    setBusy(true);
    setError('');
    try {
      const { blob, fileName } = await getAccountExport();
      saveFile(blob, fileName);
    } catch (failure) {
      setError(readApiError(failure)?.message || m.account_settings_export_failed(locale));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card account-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{m.account_settings_export_heading(locale)}</h2>
      <p>{m.account_settings_export_text(locale)}</p>
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => void download()}
        aria-busy={busy || undefined}
        data-testid="account-export"
      >
        {busy && <span className="spinner spinner-sm" aria-hidden="true" />}
        {m.account_settings_export_button(locale)}
      </button>
      {error && (
        <p className="account-section__error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

/** The way to the API keys and webhooks (/account/api, issue 36). */
function ApiAccessLink({ locale }: { locale: Locale }) {
  const headingId = useId();
  return (
    <section className="card account-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{m.apiaccess_account_heading(locale)}</h2>
      <p>{m.apiaccess_account_text(locale)}</p>
      <a
        className="btn btn-secondary"
        href={localizePath('/account/api', locale)}
        data-testid="account-api-link"
      >
        {m.apiaccess_account_link(locale)}
      </a>
    </section>
  );
}

/** What closing the account takes away and what it keeps, and the button that asks to. */
function CloseAccount({
  user,
  credits,
  onClosed,
  locale,
}: {
  user: PublicUser;
  credits: number;
  onClosed: () => void;
  locale: Locale;
}) {
  const headingId = useId();
  const [open, setOpen] = useState(false);
  return (
    <section className="card account-section account-section--danger" aria-labelledby={headingId}>
      <h2 id={headingId}>{m.account_settings_close_heading(locale)}</h2>
      <p>{m.account_settings_close_lead(locale)}</p>
      <ul className="account-losses">
        <li>{m.account_settings_close_videos(locale)}</li>
        <li>
          {m.account_settings_close_credits(locale, { credits: formatNumber(credits, locale) })}
        </li>
        <li>{m.account_settings_close_subscription(locale)}</li>
        <li>{m.account_settings_close_sessions(locale)}</li>
      </ul>
      <p className="account-section__note">{m.account_settings_close_kept(locale)}</p>
      <button
        type="button"
        className="btn btn-danger"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        data-testid="account-close"
      >
        {m.account_settings_close_button(locale)}
      </button>
      <CloseAccountDialog
        open={open}
        needsPassword={user.provider === 'email'}
        onClose={() => setOpen(false)}
        onClosed={onClosed}
        locale={locale}
      />
    </section>
  );
}

export default function AccountSettings({ locale = 'en' }: { locale?: Locale }) {
  const ready = useHydratedStore($authReady);
  const user = useHydratedStore($user);
  const credits = useHydratedStore($credits);
  const [closed, setClosed] = useState(false);
  const userId = user?.id ?? null;

  useEffect(() => {
    if (userId) void refreshCredits();
  }, [userId]);

  if (closed) {
    return (
      <section className="card account-section account-closed" data-testid="account-closed">
        {/* Focused when shown: the dialog and the button that opened it are gone. */}
        <h2 tabIndex={-1} ref={(heading) => heading?.focus()}>
          {m.account_settings_closed_title(locale)}
        </h2>
        <p role="status">{m.account_settings_closed_text(locale, { brand: BRAND })}</p>
        <a className="btn btn-primary" href={localizePath('/', locale)}>
          {m.account_settings_home(locale)}
        </a>
      </section>
    );
  }
  if (!ready) return <LoadingScreen variant="inline" locale={locale} />;
  if (!user) {
    return (
      <section className="card account-section" data-testid="account-sign-in">
        <h2>{m.account_settings_sign_in_title(locale)}</h2>
        <p>{m.account_settings_sign_in_text(locale)}</p>
        <SignInLink className="btn btn-primary" locale={locale}>
          {m.account_settings_sign_in(locale)}
        </SignInLink>
      </section>
    );
  }
  return (
    <div className="account-sections">
      <Profile user={user} credits={credits} locale={locale} />
      <ExportData locale={locale} />
      <BillingSection locale={locale} />
      <ApiAccessLink locale={locale} />
      <CloseAccount
        user={user}
        credits={credits}
        onClosed={() => {
          // The server revoked every session: forget this one without asking it again.
          clearSession();
          setClosed(true);
        }}
        locale={locale}
      />
    </div>
  );
}
