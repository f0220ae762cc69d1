/**
 * Confirmation before a video is deleted (issue 34): what goes (the video, its poster, its links)
 * and what does not come back (the credits). The safe choice, 'Keep video', has focus first; a
 * refusal (a video still being made) is read out in the dialog, which stays open.
 */
import { useId, useRef, useState, type RefObject } from 'react';
import type { HistoryItem } from '../../../shared/api/video.ts';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { httpStatus, readApiError } from '../../lib/api/http.ts';
import { deleteVideo } from '../../lib/api/video.ts';
import ConfirmButtons from '../shared/ConfirmButtons.tsx';
import Dialog from '../shared/Dialog.tsx';

interface DeleteVideoDialogProps {
  /** The video to delete; null while the dialog is closed. */
  item: HistoryItem | null;
  onClose: () => void;
  /** The video is gone (deleted now, or already). */
  onDeleted: (item: HistoryItem) => void;
  /** Focus target after a delete, when the card's Delete button has gone with it. */
  fallbackFocusRef: RefObject<HTMLElement | null>;
  locale: Locale;
}

export default function DeleteVideoDialog({
  item,
  onClose,
  onDeleted,
  fallbackFocusRef,
  locale,
}: DeleteVideoDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const keepRef = useRef<HTMLButtonElement>(null);
  const headingId = useId();
  const textId = useId();

  const close = () => {
    setError('');
    onClose();
  };

  const onConfirm = async () => {
    if (busy || !item) return;
    setBusy(true);
    setError('');
    try {
      await deleteVideo(item.id);
      onDeleted(item);
    } catch (failure) {
      // Gone already (deleted in another tab): what the person asked for is done.
      if (httpStatus(failure) === 404) onDeleted(item);
      else setError(readApiError(failure)?.message || m.history_delete_failed(locale));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={item !== null}
      busy={busy}
      onClose={close}
      role="alertdialog"
      labelledBy={headingId}
      describedBy={textId}
      initialFocusRef={keepRef}
      fallbackFocusRef={fallbackFocusRef}
      className="history-dialog"
      testId="delete-video-dialog"
    >
      <h2 id={headingId} className="history-dialog__title">
        {m.history_delete_title(locale)}
      </h2>
      <div id={textId}>
        <p className="history-dialog__prompt">{item?.prompt}</p>
        <p>{m.history_delete_text(locale)}</p>
      </div>
      {error && (
        <p className="history-dialog__error" role="alert">
          {error}
        </p>
      )}
      <div className="history-dialog__actions">
        <ConfirmButtons
          cancelRef={keepRef}
          cancelLabel={m.history_delete_keep(locale)}
          confirmLabel={m.history_delete_confirm(locale)}
          danger
          busy={busy}
          onCancel={close}
          onConfirm={() => void onConfirm()}
        />
      </div>
    </Dialog>
  );
}
