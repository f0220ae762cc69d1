/**
 * The two buttons of a confirmation dialog: the safe choice (focused first by the dialog) and the
 * change itself, with a spinner while it runs. While busy both are aria-disabled rather than
 * disabled: focus must not fall out of the dialog.
 */
import type { RefObject } from 'react';

interface ConfirmButtonsProps {
  cancelRef: RefObject<HTMLButtonElement | null>;
  cancelLabel: string;
  confirmLabel: string;
  /** A change that takes something away (cancel a subscription, remove credits). */
  danger?: boolean;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

export default function ConfirmButtons({
  cancelRef,
  cancelLabel,
  confirmLabel,
  danger = false,
  busy,
  onCancel,
  onConfirm,
}: ConfirmButtonsProps) {
  return (
    <>
      <button
        ref={cancelRef}
        type="button"
        className="btn btn-secondary"
        onClick={() => {
          if (!busy) onCancel();
        }}
        aria-disabled={busy || undefined}
      >
        {cancelLabel}
      </button>
      <button
        type="button"
        className={danger ? 'btn btn-danger' : 'btn btn-primary'}
        onClick={onConfirm}
        aria-disabled={busy || undefined}
        aria-busy={busy || undefined}
      >
        {busy && <span className="spinner spinner-sm" aria-hidden="true" />}
        {confirmLabel}
      </button>
    </>
  );
}
