/**
 * The site's one modal dialog, on the native <dialog> (showModal makes the rest of the page
 * inert), used by the pricing dialogs and the admin's action dialog. Adds on top: Tab wraps
 * inside, Escape closes unless busy, focus goes back to the opener (or a fallback when the opener
 * is gone).
 */
import { useEffect, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { keepTabInside } from './focus-trap.ts';

interface DialogProps {
  open: boolean;
  /** While true, Escape does nothing (a request is in flight). */
  busy: boolean;
  onClose: () => void;
  role?: 'dialog' | 'alertdialog';
  labelledBy: string;
  describedBy?: string;
  /** Receives focus on open; the dialog itself when absent. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  /** Receives focus on close when the element that opened the dialog is no longer there. */
  fallbackFocusRef?: RefObject<HTMLElement | null>;
  className?: string;
  testId?: string;
  children: ReactNode;
}

export default function Dialog({
  open,
  busy,
  onClose,
  role = 'dialog',
  labelledBy,
  describedBy,
  initialFocusRef,
  fallbackFocusRef,
  className,
  testId,
  children,
}: DialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const openerRef = useRef<HTMLElement | null>(null);
  const busyRef = useRef(busy);
  const onCloseRef = useRef(onClose);

  useEffect(() => {
    busyRef.current = busy;
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      openerRef.current =
        document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      (initialFocusRef?.current ?? dialog).focus();
    } else if (!open && dialog.open) {
      dialog.close();
      const opener = openerRef.current;
      openerRef.current = null;
      const target = opener?.isConnected && !opener.hasAttribute('disabled') ? opener : null;
      (target ?? fallbackFocusRef?.current)?.focus();
    }
  }, [open, initialFocusRef, fallbackFocusRef]);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    // The browser may still close it (e.g. a second Escape); keep our state the source of truth.
    const onNativeClose = () => {
      // A `close` event is queued, not dispatched at once: one from an earlier close may arrive
      // after the dialog was opened again (Escape, then Enter on its opener, on a busy page).
      // The dialog is open then, and that late event must not close it.
      if (!open || dialog.open) return;
      if (busyRef.current) dialog.showModal();
      else onCloseRef.current();
    };
    const onCancel = (event: Event) => {
      event.preventDefault();
      if (!busyRef.current) onCloseRef.current();
    };
    dialog.addEventListener('close', onNativeClose);
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('close', onNativeClose);
      dialog.removeEventListener('cancel', onCancel);
    };
  }, [open]);

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === 'Escape') {
      // Handled here rather than by the browser, which may skip `cancel` on a repeated Escape.
      event.preventDefault();
      if (!busyRef.current) onClose();
      return;
    }
    if (dialogRef.current) keepTabInside(event, dialogRef.current);
  };

  return (
    <dialog
      ref={dialogRef}
      className={className ? `dialog ${className}` : 'dialog'}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-modal="true"
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      aria-busy={busy || undefined}
      tabIndex={-1}
      data-testid={testId}
      onKeyDown={onKeyDown}
    >
      {open && children}
    </dialog>
  );
}
