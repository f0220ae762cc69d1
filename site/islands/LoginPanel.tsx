/**
 * The sign-in options of /login (spec 2 Routes, 4 Login, 8 Login): Google sign-in and local
 * sign-in, inside the page's card (LoginPage.astro: heading, lead and legal line are static).
 */
import { GoogleLogin, GoogleOAuthProvider, type CredentialResponse } from '@react-oauth/google';
import { useEffect, useState, type InputHTMLAttributes, type SubmitEvent } from 'react';
import type { AuthConfigResponse, SessionResponse } from '../../shared/api/auth.ts';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH } from '../../shared/auth.ts';
import { localizePath, type Locale } from '../i18n/locales.ts';
import * as m from '../i18n/messages.ts';
import { trackLogin } from '../lib/analytics.ts';
import { getAuthConfig, signInLocally, signInWithGoogle } from '../lib/api/auth.ts';
import { $authReady, $authToken, $user, setSession } from '../stores/auth.ts';
import LoadingScreen from './LoadingScreen.tsx';
import { useHydratedStore } from './shared/use-hydrated-store.ts';

type AuthConfig = AuthConfigResponse['data'];

type ConfigState =
  { status: 'loading' } | { status: 'ready'; config: AuthConfig } | { status: 'error' };

// Set once this page has started navigating home, so the session it just stored is not
// treated as an already signed-in visitor (which would replace the history entry instead).
let navigatingHome = false;

/** Keep the session from a sign-in answer, report it, and go home. Throws when there is no token. */
function completeSignIn(
  body: SessionResponse | undefined,
  method: 'google' | 'local',
  locale: Locale,
): void {
  const token = body?.data?.token;
  const user = body?.data?.user;
  if (!token || !user) {
    // Spec 8: a missing backend token is logged (the caller shows the failure alert).
    console.error('[login] sign-in answer has no token', body);
    throw new Error('Sign-in answer has no token');
  }
  navigatingHome = true;
  setSession(token, user);
  trackLogin(method);
  window.location.assign(localizePath('/', locale));
}

interface GoogleSignInProps {
  clientId: string;
  locale: Locale;
  onBusy: (busy: boolean) => void;
}

function GoogleSignIn({ clientId, locale, onBusy }: GoogleSignInProps) {
  const onSuccess = async ({ credential }: CredentialResponse) => {
    if (!credential) {
      console.error('[login] Google answered without a credential');
      alert(m.login_google_failed(locale));
      return;
    }
    onBusy(true);
    try {
      const body = await signInWithGoogle(credential);
      completeSignIn(body, 'google', locale);
    } catch (error) {
      console.error('[login] Google sign-in failed', error);
      onBusy(false);
      alert(m.login_google_failed(locale));
    }
  };

  return (
    <GoogleOAuthProvider clientId={clientId} locale={locale}>
      <div className="login-google">
        <GoogleLogin
          onSuccess={onSuccess}
          onError={() => {
            console.error('[login] Google sign-in was not completed');
            alert(m.login_google_failed(locale));
          }}
          theme="filled_black"
          shape="pill"
          size="large"
          text="signin_with"
          width={320}
        />
      </div>
    </GoogleOAuthProvider>
  );
}

type TextFieldProps = { id: string; label: string; onValue: (value: string) => void } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'onChange'
>;

/** A required text input of the local sign-in form, with its label. */
function TextField({ id, label, onValue, ...input }: TextFieldProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="input"
        {...input}
        required
        onChange={(event) => onValue(event.target.value)}
      />
    </div>
  );
}

function LocalSignIn({ locale }: { locale: Locale }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const body = await signInLocally(name.trim(), email.trim());
      completeSignIn(body, 'local', locale);
      // Busy stays on: the page is navigating home.
    } catch (error) {
      console.error('[login] local sign-in failed', error);
      setBusy(false);
      alert(m.login_failed(locale));
    }
  };

  return (
    <form className="login-form" onSubmit={onSubmit} aria-busy={busy}>
      <p className="login-note">
        <strong>{m.login_local_note_title(locale)}</strong>
        {m.login_local_note(locale)}
      </p>
      <TextField
        id="login-name"
        label={m.login_name(locale)}
        name="name"
        type="text"
        autoComplete="name"
        maxLength={NAME_MAX_LENGTH}
        value={name}
        onValue={setName}
      />
      <TextField
        id="login-email"
        label={m.login_email(locale)}
        name="email"
        type="email"
        autoComplete="email"
        inputMode="email"
        maxLength={EMAIL_MAX_LENGTH}
        value={email}
        onValue={setEmail}
      />
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {busy ? m.login_signing_in(locale) : m.login_submit(locale)}
      </button>
    </form>
  );
}

export default function LoginPanel({ locale = 'en' }: { locale?: Locale }) {
  const ready = useHydratedStore($authReady);
  const user = useHydratedStore($user);
  const token = useHydratedStore($authToken);
  const [config, setConfig] = useState<ConfigState>({ status: 'loading' });
  const [configAttempt, setConfigAttempt] = useState(0);
  const [googleBusy, setGoogleBusy] = useState(false);

  const alreadySignedIn = ready && Boolean(user) && Boolean(token);

  useEffect(() => {
    // Spec 2: a user with both a stored user and token is sent to / (replacing /login in history).
    // This also covers a sign-in completed in another tab while this page is open.
    if (!alreadySignedIn || navigatingHome) return;
    navigatingHome = true;
    window.location.replace(localizePath('/', locale));
  }, [alreadySignedIn, locale]);

  useEffect(() => {
    let cancelled = false;
    getAuthConfig()
      .then((body) => {
        if (!cancelled) setConfig({ status: 'ready', config: body.data });
      })
      .catch((error: unknown) => {
        console.error('[login] sign-in options unavailable', error);
        if (!cancelled) setConfig({ status: 'error' });
      });
    return () => {
      cancelled = true;
    };
  }, [configAttempt]);

  if (!ready || alreadySignedIn) return <LoadingScreen variant="inline" locale={locale} />;

  return (
    <>
      {config.status === 'loading' && (
        <div className="login-status" role="status">
          <div className="spinner spinner-sm" aria-hidden="true" />
          <span>{m.login_loading_options(locale)}</span>
        </div>
      )}

      {config.status === 'error' && (
        <div className="login-status login-status--error" role="alert">
          <span>{m.login_unavailable(locale)}</span>
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => {
              setConfig({ status: 'loading' });
              setConfigAttempt((attempt) => attempt + 1);
            }}
          >
            {m.login_try_again(locale)}
          </button>
        </div>
      )}

      {config.status === 'ready' && (
        <>
          {config.config.googleClientId && (
            <GoogleSignIn
              clientId={config.config.googleClientId}
              locale={locale}
              onBusy={setGoogleBusy}
            />
          )}
          {googleBusy && (
            <div className="login-status" role="status">
              <div className="spinner spinner-sm" aria-hidden="true" />
              <span>{m.login_signing_in(locale)}</span>
            </div>
          )}
          {config.config.googleClientId && config.config.localSignIn && (
            <div className="login-divider" role="separator">
              <span>{m.login_or(locale)}</span>
            </div>
          )}
          {config.config.localSignIn && <LocalSignIn locale={locale} />}
          {!config.config.googleClientId && !config.config.localSignIn && (
            <p className="login-status login-status--error" role="alert">
              {m.login_no_method(locale)}
            </p>
          )}
        </>
      )}
    </>
  );
}
