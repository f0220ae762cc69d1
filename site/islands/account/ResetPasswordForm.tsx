/**
 * The form of /reset-password: a new password, typed twice, set with the token of the mailed
 * link (the request is made only when the person submits, never when the page opens). The
 * server's answer comes back in the page's language; its sign-in link leads to that language's
 * sign-in page.
 */
import { useState, type SubmitEvent } from 'react';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../shared/auth.ts';
import { localizePath, type Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { confirmPasswordReset } from '../../lib/api/auth.ts';
import { apiErrorMessage } from '../../lib/api/http.ts';
import { formatNumber, textAround } from '../../lib/format.ts';
import { useLinkToken } from './link-token.ts';

type State =
  | { status: 'idle' }
  | { status: 'busy' }
  | { status: 'error'; message: string }
  | { status: 'done'; message: string };

interface Props {
  locale: Locale;
}

export default function ResetPasswordForm({ locale }: Props) {
  const token = useLinkToken();
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const [state, setState] = useState<State>({ status: 'idle' });

  if (token === null) {
    return (
      <p className="account-message account-message--error" role="alert">
        {m.account_reset_no_token(locale)}
      </p>
    );
  }

  if (state.status === 'done') {
    const { message } = state;
    const [before, after] = textAround((link) => m.account_reset_done(locale, { message, link }));
    return (
      <p className="account-message account-message--done" role="status">
        {before}
        <a href={localizePath('/login', locale)}>{m.account_reset_go_to_sign_in(locale)}</a>
        {after}
      </p>
    );
  }

  const busy = state.status === 'busy';
  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!token || busy) return;
    if (password !== repeated) {
      setState({ status: 'error', message: m.account_reset_mismatch(locale) });
      return;
    }
    setState({ status: 'busy' });
    try {
      const body = await confirmPasswordReset(token, password);
      setState({ status: 'done', message: body.message });
    } catch (error) {
      console.error('[reset-password] reset failed', error);
      setState({
        status: 'error',
        message: apiErrorMessage(error, m.account_reset_failed(locale)),
      });
    }
  };

  return (
    <form className="account-form" onSubmit={onSubmit} aria-busy={busy}>
      <div className="field">
        <label htmlFor="reset-password">{m.account_reset_password_label(locale)}</label>
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
          {m.account_reset_password_hint(locale, {
            min: formatNumber(PASSWORD_MIN_LENGTH, locale),
          })}
        </p>
      </div>
      <div className="field">
        <label htmlFor="reset-password-repeat">{m.account_reset_repeat_label(locale)}</label>
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
        {busy ? m.account_reset_busy(locale) : m.account_reset_submit(locale)}
      </button>
    </form>
  );
}
