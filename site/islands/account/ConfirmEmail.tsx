/**
 * The action of /verify-email: confirms the address with the link's token when the person
 * presses the button, then keeps the session like the sign-in page does and goes home. Opening
 * the page does nothing by itself: mail scanners fetch links, and a fetch must not use the token.
 */
import { useState, type SubmitEvent } from 'react';
import { confirmEmail } from '../../lib/api/auth.ts';
import { apiErrorMessage } from '../../lib/api/http.ts';
import { setSession } from '../../stores/auth.ts';
import { useLinkToken } from './link-token.ts';

type State =
  | { status: 'idle' }
  | { status: 'busy' }
  | { status: 'error'; message: string }
  | { status: 'done' };

const FAILED =
  'We could not confirm your email address. Check your connection and press the button again.';

export default function ConfirmEmail() {
  const token = useLinkToken();
  const [state, setState] = useState<State>({ status: 'idle' });

  if (token === null) {
    return (
      <p className="account-message account-message--error" role="alert">
        This address has no confirmation code. Open the link from the mail again, or sign up again
        with the same email to get a new link.
      </p>
    );
  }

  const busy = state.status === 'busy' || state.status === 'done';
  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!token || busy) return;
    setState({ status: 'busy' });
    try {
      const body = await confirmEmail(token);
      setState({ status: 'done' });
      setSession(body.data.token, body.data.user);
      window.location.assign('/');
    } catch (error) {
      console.error('[verify-email] confirmation failed', error);
      setState({ status: 'error', message: apiErrorMessage(error, FAILED) });
    }
  };

  return (
    <form className="account-form" onSubmit={onSubmit} aria-busy={busy}>
      {state.status === 'error' && (
        <p className="account-message account-message--error" role="alert">
          {state.message}
        </p>
      )}
      {state.status === 'done' && (
        <p className="account-message account-message--done" role="status">
          Your email address is confirmed. Taking you home…
        </p>
      )}
      <button type="submit" className="btn btn-primary btn-block" disabled={!token || busy}>
        {busy ? 'Confirming…' : 'Confirm my email'}
      </button>
    </form>
  );
}
