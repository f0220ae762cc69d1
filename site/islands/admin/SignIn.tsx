/**
 * The admin sign-in form (issue 7; spec 4 Login: 'Signing in...' while busy). Failures show the
 * server's own message: wrong credentials, a lockout with its wait, or no admin configured.
 */
import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import type { AdminIdentity } from '../../../shared/api/admin.ts';
import { apiErrorMessage } from '../../lib/api/http.ts';
import { signInAdmin } from '../../lib/api/admin.ts';
import Field from './Field.tsx';

const SIGN_IN_FAILED = 'Could not reach the server to sign in. Check the connection and try again.';

interface SignInProps {
  /** Why the admin is here again: their session ended, or they signed out. */
  notice: string;
  onSignedIn: (admin: AdminIdentity) => void;
}

export default function SignIn({ notice, onSignedIn }: SignInProps) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const usernameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const errorId = useId();

  useEffect(() => {
    usernameRef.current?.focus();
  }, []);

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!username.trim() || !password) {
      setError('Enter both the admin username and the password.');
      (username.trim() ? passwordRef : usernameRef).current?.focus();
      return;
    }
    setBusy(true);
    setError('');
    try {
      onSignedIn(await signInAdmin(username.trim(), password));
    } catch (failure) {
      console.error('[admin] sign-in failed', failure);
      setError(apiErrorMessage(failure, SIGN_IN_FAILED));
      setPassword('');
      setBusy(false);
      passwordRef.current?.focus();
    }
  };

  return (
    <div className="admin-signin">
      <form
        className="admin-signin__card"
        onSubmit={(event) => void onSubmit(event)}
        aria-labelledby="admin-signin-title"
        noValidate
      >
        <h1 id="admin-signin-title">Admin sign-in</h1>
        <p className="admin-signin__intro">
          For the people who run this service. The admin account is separate from customer accounts:
          signing in here does not sign you in on the site.
        </p>
        {notice && (
          <p className="admin-signin__notice" role="status" data-testid="admin-signin-notice">
            {notice}
          </p>
        )}
        <Field
          ref={usernameRef}
          id="admin-username"
          label="Username"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={username}
          onValue={setUsername}
          errorId={error ? errorId : undefined}
          required
        />
        <Field
          ref={passwordRef}
          id="admin-password"
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onValue={setPassword}
          errorId={error ? errorId : undefined}
          required
        />
        <p
          id={errorId}
          className="admin-signin__error"
          role="alert"
          data-testid="admin-signin-error"
        >
          {error}
        </p>
        <button type="submit" className="btn btn-primary btn-lg btn-block" aria-busy={busy}>
          {busy && <span className="spinner spinner-sm" aria-hidden="true" />}
          {busy ? 'Signing in...' : 'Sign in'}
        </button>
      </form>
    </div>
  );
}
