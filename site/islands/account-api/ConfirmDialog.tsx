/**
 * The confirmation before a change on /account/api that cannot be taken back (revoke a key,
 * rotate a secret, delete an endpoint): a modal with the question, what follows from it, the
 * safe choice focused first, and the server's message when the change fails.
 */
import { useId, useRef, useState, type RefObject } from 'react';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { apiErrorMessage } from '../../lib/api/http.ts';
import ConfirmButtons from '../shared/ConfirmButtons.tsx';
import Dialog from '../shared/Dialog.tsx';

export interface ConfirmRequest {
  title: string;
  text: string;
  confirmLabel: string;
  /** Takes something away (revoke, delete) rather than replacing it (rotate). */
  danger: boolean;
  /** Makes the change; the dialog closes when it resolves. */
  run: () => Promise<void>;
}

interface ConfirmDialogProps {
  request: ConfirmRequest | null;
  onClose: () => void;
  /** Focused after the change when the button that asked for it is gone (a revoked key's). */
  fallbackFocusRef: RefObject<HTMLElement | null>;
  locale: Locale;
}

export default function ConfirmDialog({
  request,
  onClose,
  fallbackFocusRef,
  locale,
}: ConfirmDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const cancelRef = useRef<HTMLButtonElement>(null);
  const headingId = useId();
  const textId = useId();

  const close = () => {
    setError('');
    onClose();
  };

  const confirm = async () => {
    if (!request || busy) return;
    setBusy(true);
    setError('');
    try {
      await request.run();
      close();
    } catch (failure) {
      setError(apiErrorMessage(failure, m.apiaccess_failed(locale)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={request !== null}
      busy={busy}
      onClose={close}
      role="alertdialog"
      labelledBy={headingId}
      describedBy={textId}
      initialFocusRef={cancelRef}
      fallbackFocusRef={fallbackFocusRef}
      className="account-dialog"
      testId="apiaccess-confirm"
    >
      {request && (
        <div className="apiaccess-dialog">
          <h2 id={headingId} className="account-dialog__title">
            {request.title}
          </h2>
          <p id={textId}>{request.text}</p>
          {error && (
            <p className="account-dialog__error" role="alert">
              {error}
            </p>
          )}
          <div className="account-dialog__actions">
            <ConfirmButtons
              cancelRef={cancelRef}
              cancelLabel={m.apiaccess_cancel(locale)}
              confirmLabel={request.confirmLabel}
              danger={request.danger}
              busy={busy}
              onCancel={close}
              onConfirm={() => void confirm()}
            />
          </div>
        </div>
      )}
    </Dialog>
  );
}
