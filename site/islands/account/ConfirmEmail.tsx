/**
 * The action of /verify-email: confirms the address with the link's token when the person
 * presses the button, then keeps the session like the sign-in page does and goes home (the home
 * page of the page's language). Opening the page does nothing by itself: mail scanners fetch
 * links, and a fetch must not use the token.
 */
import { useState, type SubmitEvent } from 'react';
import { localizePath, type Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { confirmEmail } from '../../lib/api/auth.ts';
import { apiErrorMessage } from '../../lib/api/http.ts';
import { setSession } from '../../stores/auth.ts';
import { useLinkToken } from './link-token.ts';

type State =
  | { status: 'idle' }
  | { status: 'busy' }
  | { status: 'error'; message: string }
  | { status: 'done' };

interface Props {
  locale: Locale;
}

export default function ConfirmEmail({ locale }: Props) {
  const token = useLinkToken();
  const [state, setState] = useState<State>({ status: 'idle' });

  if (token === null) {
    return (
      <p className="account-message account-message--error" role="alert">
        {m.account_verify_no_token(locale)}
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
      window.location.assign(localizePath('/', locale));
    } catch (error) {
      console.error('[verify-email] confirmation failed', error);
      setState({
        status: 'error',
        message: apiErrorMessage(error, m.account_verify_failed(locale)),
      });
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
          {m.account_verify_done(locale)}
        </p>
      )}
      <button type="submit" className="btn btn-primary btn-block" disabled={!token || busy}>
        {busy ? m.account_verify_busy(locale) : m.account_verify_submit(locale)}
      </button>
    </form>
  );
}
