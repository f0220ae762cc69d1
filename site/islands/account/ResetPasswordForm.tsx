/**
 * The form of /reset-password: a new password, typed twice, set with the token of the mailed
 * link (the request is made only when the person submits, never when the page opens).
 */
import { useState, type SubmitEvent } from 'react';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../shared/auth.ts';
import { confirmPasswordReset } from '../../lib/api/auth.ts';
import { apiErrorMessage } from '../../lib/api/http.ts';
import { useLinkToken } from './link-token.ts';

type State =
  | { status: 'idle' }
  | { status: 'busy' }
  | { status: 'error'; message: string }
  | { status: 'done'; message: string };

const FAILED = 'We could not change your password. Check your connection and try again.';
const MISMATCH = 'The two passwords are different. Type the same new password in both fields.';

export default function ResetPasswordForm() {
  const token = useLinkToken();
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const [state, setState] = useState<State>({ status: 'idle' });

  if (token === null) {
    return (
      <p className="account-message account-message--error" role="alert">
        This address has no reset code. Open the link from the mail again, or ask for a new reset
        link.
      </p>
    );
  }

  if (state.status === 'done') {
    return (
      <p className="account-message account-message--done" role="status">
        {state.message} <a href="/login">Go to sign-in</a>.
      </p>
    );
  }

  const busy = state.status === 'busy';
  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!token || busy) return;
    if (password !== repeated) {
      setState({ status: 'error', message: MISMATCH });
      return;
    }
    setState({ status: 'busy' });
    try {
      const body = await confirmPasswordReset(token, password);
      setState({ status: 'done', message: body.message });
    } catch (error) {
      console.error('[reset-password] reset failed', error);
      setState({ status: 'error', message: apiErrorMessage(error, FAILED) });
    }
  };

  return (
    <form className="account-form" onSubmit={onSubmit} aria-busy={busy}>
      <div className="field">
        <label htmlFor="reset-password">New password</label>
        <input
          id="reset-password"
          className="input"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          maxLength={PASSWORD_MAX_LENGTH}
          aria-describedby="reset-password-hint"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <p id="reset-password-hint" className="account-hint">
          At least {PASSWORD_MIN_LENGTH} characters.
        </p>
      </div>
      <div className="field">
        <label htmlFor="reset-password-repeat">Repeat the new password</label>
        <input
          id="reset-password-repeat"
          className="input"
          name="password-repeat"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          maxLength={PASSWORD_MAX_LENGTH}
          value={repeated}
          onChange={(event) => setRepeated(event.target.value)}
        />
      </div>
      {state.status === 'error' && (
        <p className="account-message account-message--error" role="alert">
          {state.message}
        </p>
      )}
      <button type="submit" className="btn btn-primary btn-block" disabled={!token || busy}>
        {busy ? 'Saving…' : 'Set new password'}
      </button>
    </form>
  );
}
