/**
 * The last step before an account is closed (issue 34): a modal that says it cannot be undone and
 * asks for the proof the server wants, the password of an email account, or for a Google (or
 * local) account a sign-in from the last few minutes, with a way to sign in again. The safe
 * choice, 'Keep my account', has focus first unless there is a password to type.
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import { FRESH_SIGN_IN_MINUTES } from '../../../shared/account.ts';
import { PASSWORD_MAX_LENGTH } from '../../../shared/auth.ts';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { readApiError } from '../../lib/api/http.ts';
import { closeAccount } from '../../lib/api/account.ts';
import ConfirmButtons from '../shared/ConfirmButtons.tsx';
import Dialog from '../shared/Dialog.tsx';
import SignInLink from '../shared/SignInLink.tsx';

interface CloseAccountDialogProps {
  open: boolean;
  /** An email account confirms with its password; the others with a fresh sign-in. */
  needsPassword: boolean;
  onClose: () => void;
  onClosed: () => void;
  locale: Locale;
}

export default function CloseAccountDialog({
  open,
  needsPassword,
  onClose,
  onClosed,
  locale,
}: CloseAccountDialogProps) {
  const [busy, setBusy] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const keepRef = useRef<HTMLButtonElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const headingId = useId();
  const textId = useId();
  const passwordId = useId();
  const errorId = useId();

  const close = () => {
    setPassword('');
    setError('');
    onClose();
  };

  const confirm = async (event?: FormEvent) => {
    event?.preventDefault();
    if (busy) return;
    if (needsPassword && !password) {
      setError(m.account_settings_password_missing(locale));
      passwordRef.current?.focus();
      return;
    }
    setBusy(true);
    setError('');
    try {
      await closeAccount(needsPassword ? password : null);
      onClosed();
    } catch (failure) {
      setError(readApiError(failure)?.message || m.account_settings_close_failed(locale));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      busy={busy}
      onClose={close}
      role="alertdialog"
      labelledBy={headingId}
      describedBy={textId}
      initialFocusRef={needsPassword ? passwordRef : keepRef}
      className="account-dialog"
      testId="close-account-dialog"
    >
      <form onSubmit={(event) => void confirm(event)} noValidate>
        <h2 id={headingId} className="account-dialog__title">
          {m.account_settings_dialog_title(locale)}
        </h2>
        <p id={textId}>
          {needsPassword
            ? m.account_settings_dialog_password(locale)
            : m.account_settings_dialog_reauth(locale, { minutes: FRESH_SIGN_IN_MINUTES })}
        </p>
        {needsPassword ? (
          <div className="field">
            <label htmlFor={passwordId}>{m.account_settings_password_label(locale)}</label>
            <input
              ref={passwordRef}
              id={passwordId}
              className="input"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              aria-invalid={error !== '' || undefined}
              aria-describedby={error ? errorId : undefined}
              maxLength={PASSWORD_MAX_LENGTH}
              required
            />
          </div>
        ) : (
          <SignInLink className="btn btn-secondary account-dialog__sign-in" locale={locale}>
            {m.account_settings_sign_in_again(locale)}
          </SignInLink>
        )}
        {error && (
          <p id={errorId} className="account-dialog__error" role="alert">
            {error}
          </p>
        )}
        <div className="account-dialog__actions">
          <ConfirmButtons
            cancelRef={keepRef}
            cancelLabel={m.account_settings_keep(locale)}
            confirmLabel={m.account_settings_confirm(locale)}
            danger
            busy={busy}
            onCancel={close}
            onConfirm={() => void confirm()}
          />
        </div>
      </form>
    </Dialog>
  );
}
