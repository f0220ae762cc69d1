/**
 * Cancel confirmation (spec 2 Pricing, 4 Subscription): the subscription ends now and the
 * remaining credits stay. The safe choice, 'Keep subscription', has focus first.
 */
import { useId, useRef, useState, type RefObject } from 'react';
import {
  BANNER_LONG_MS,
  BANNER_SHORT_MS,
  CANCEL_FAILED,
  cancelSubscription,
  showBanner,
} from '../../stores/subscription.ts';
import ConfirmButtons from '../shared/ConfirmButtons.tsx';
import Dialog from '../shared/Dialog.tsx';

interface CancelDialogProps {
  open: boolean;
  planName: string;
  onClose: () => void;
  /** Focus target after a successful cancel, when the Cancel button has gone. */
  fallbackFocusRef: RefObject<HTMLElement | null>;
}

export default function CancelDialog({
  open,
  planName,
  onClose,
  fallbackFocusRef,
}: CancelDialogProps) {
  const [busy, setBusy] = useState(false);
  const keepRef = useRef<HTMLButtonElement>(null);
  const headingId = useId();
  const textId = useId();

  const onConfirm = async () => {
    if (busy) return;
    setBusy(true);
    try {
      const message = await cancelSubscription();
      showBanner({
        tone: 'success',
        message: message || 'Your subscription has been cancelled.',
        durationMs: BANNER_SHORT_MS,
      });
    } catch (error) {
      const message = error instanceof Error && error.message ? error.message : CANCEL_FAILED;
      showBanner({
        tone: 'error',
        message,
        lang: message === CANCEL_FAILED ? 'zh-CN' : undefined,
        durationMs: BANNER_LONG_MS,
      });
    } finally {
      setBusy(false);
      onClose();
    }
  };

  return (
    <Dialog
      open={open}
      busy={busy}
      onClose={onClose}
      role="alertdialog"
      labelledBy={headingId}
      describedBy={textId}
      initialFocusRef={keepRef}
      fallbackFocusRef={fallbackFocusRef}
      className="pricing-dialog cancel-dialog"
      testId="cancel-dialog"
    >
      <h2 id={headingId} className="pricing-dialog__title">
        Cancel your {planName} subscription?
      </h2>
      <div id={textId} className="cancel-dialog__text">
        <p>
          Your subscription ends <strong>now</strong>: it is cancelled immediately and will not
          renew, and no further monthly credits will be added.
        </p>
        <p>The credits remaining in your account stay yours, and you can keep using them.</p>
      </div>
      <div className="pricing-dialog__actions">
        <ConfirmButtons
          cancelRef={keepRef}
          cancelLabel="Keep subscription"
          confirmLabel="Cancel subscription"
          danger
          busy={busy}
          onCancel={onClose}
          onConfirm={() => void onConfirm()}
        />
      </div>
    </Dialog>
  );
}
