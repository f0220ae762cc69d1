/**
 * Cancel confirmation (spec 2 Pricing, 4 Subscription): the subscription ends now and the
 * remaining credits stay. The safe choice, 'Keep subscription', has focus first.
 */
import { useId, useRef, useState, type RefObject } from 'react';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { textAround } from '../../lib/format.ts';
import {
  BANNER_LONG_MS,
  BANNER_SHORT_MS,
  CANCEL_FAILED,
  cancelSubscription,
  serverText,
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
  locale: Locale;
}

export default function CancelDialog({
  open,
  planName,
  onClose,
  fallbackFocusRef,
  locale,
}: CancelDialogProps) {
  const [busy, setBusy] = useState(false);
  const keepRef = useRef<HTMLButtonElement>(null);
  const headingId = useId();
  const textId = useId();

  const onConfirm = async () => {
    if (busy) return;
    setBusy(true);
    try {
      await cancelSubscription();
      showBanner({
        tone: 'success',
        message: m.pricing_cancel_succeeded,
        durationMs: BANNER_SHORT_MS,
      });
    } catch (error) {
      const message = error instanceof Error && error.message ? error.message : CANCEL_FAILED;
      const fallback = message === CANCEL_FAILED;
      // A refusal's message comes in the page's language (the client sends Accept-Language).
      showBanner({
        tone: 'error',
        message: fallback ? m.pricing_cancel_failed : serverText(message),
        // The spec's fallback is Chinese in every language.
        lang: fallback && locale !== 'zh-CN' ? 'zh-CN' : undefined,
        durationMs: BANNER_LONG_MS,
      });
    } finally {
      setBusy(false);
      onClose();
    }
  };

  const [endsBefore, endsAfter] = textAround((now) => m.pricing_cancel_ends(locale, { now }));

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
        {m.pricing_cancel_title(locale, { plan: planName })}
      </h2>
      <div id={textId} className="cancel-dialog__text">
        <p>
          {endsBefore}
          <strong>{m.pricing_cancel_now(locale)}</strong>
          {endsAfter}
        </p>
        <p>{m.pricing_cancel_credits_stay(locale)}</p>
      </div>
      <div className="pricing-dialog__actions">
        <ConfirmButtons
          cancelRef={keepRef}
          cancelLabel={m.pricing_keep_subscription(locale)}
          confirmLabel={m.pricing_cancel_subscription(locale)}
          danger
          busy={busy}
          onCancel={onClose}
          onConfirm={() => void onConfirm()}
        />
      </div>
    </Dialog>
  );
}
