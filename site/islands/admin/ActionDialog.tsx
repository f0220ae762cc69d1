/**
 * Every admin change goes through this one dialog: it states exactly what will happen, runs the
 * change only on an explicit confirm, then shows the server's result or error message. Views ask
 * for it with `useConfirmAction()`; `onDone` refreshes what the change affected.
 */
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import { apiErrorMessage } from '../../lib/api/http.ts';
import ConfirmButtons from '../shared/ConfirmButtons.tsx';
import Dialog from '../shared/Dialog.tsx';

export interface ActionRequest {
  /** The question, naming the change and its target: "Add 50 credits to ann@example.com?" */
  question: string;
  /** What else the admin should know before confirming (the reason, the resulting balance). */
  details?: ReactNode;
  confirmLabel: string;
  tone?: 'primary' | 'danger';
  /** Makes the change; resolves with the result to show. */
  run: () => Promise<string>;
  /** Refreshes the affected view after a success. */
  onDone?: () => void;
}

type Phase = 'confirm' | 'busy' | 'done' | 'failed';

const ACTION_FAILED = 'The change could not be made. Nothing was changed; please try again.';

const ConfirmContext = createContext<(request: ActionRequest) => void>(() => {
  throw new Error('useConfirmAction needs an ActionDialogProvider');
});

/** Opens the confirmation for a change. */
export function useConfirmAction(): (request: ActionRequest) => void {
  return useContext(ConfirmContext);
}

interface ProviderProps {
  /** Focus target after the dialog closes when the button that opened it has gone. */
  fallbackFocusRef: RefObject<HTMLElement | null>;
  children: ReactNode;
}

export function ActionDialogProvider({ fallbackFocusRef, children }: ProviderProps) {
  const [request, setRequest] = useState<ActionRequest | null>(null);
  const [phase, setPhase] = useState<Phase>('confirm');
  const [result, setResult] = useState('');
  const cancelRef = useRef<HTMLButtonElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const headingId = useId();
  const textId = useId();

  const open = useCallback((next: ActionRequest) => {
    setRequest(next);
    setPhase('confirm');
    setResult('');
  }, []);

  const close = useCallback(() => setRequest(null), []);

  useEffect(() => {
    if (phase === 'done' || phase === 'failed') closeRef.current?.focus();
  }, [phase]);

  const confirm = async () => {
    if (!request || phase !== 'confirm') return;
    setPhase('busy');
    try {
      const message = await request.run();
      setResult(message);
      setPhase('done');
      request.onDone?.();
    } catch (error) {
      console.error('[admin] action failed', error);
      setResult(apiErrorMessage(error, ACTION_FAILED));
      setPhase('failed');
    }
  };

  const busy = phase === 'busy';
  const finished = phase === 'done' || phase === 'failed';

  return (
    <ConfirmContext.Provider value={open}>
      {children}
      <Dialog
        open={request !== null}
        busy={busy}
        onClose={close}
        role="alertdialog"
        labelledBy={headingId}
        describedBy={textId}
        initialFocusRef={cancelRef}
        fallbackFocusRef={fallbackFocusRef}
        className="admin-dialog"
        testId="admin-action-dialog"
      >
        {request && (
          <>
            <h2 id={headingId} className="admin-dialog__title">
              {request.question}
            </h2>
            <div id={textId} className="admin-dialog__text">
              {request.details}
            </div>
            {finished && (
              <p
                className={`admin-dialog__result admin-dialog__result--${phase}`}
                role={phase === 'failed' ? 'alert' : 'status'}
                data-testid="admin-action-result"
              >
                {result}
              </p>
            )}
            <div className="admin-dialog__actions">
              {finished ? (
                <button ref={closeRef} type="button" className="btn btn-primary" onClick={close}>
                  Close
                </button>
              ) : (
                <ConfirmButtons
                  cancelRef={cancelRef}
                  cancelLabel="Cancel"
                  confirmLabel={request.confirmLabel}
                  danger={request.tone === 'danger'}
                  busy={busy}
                  onCancel={close}
                  onConfirm={() => void confirm()}
                />
              )}
            </div>
          </>
        )}
      </Dialog>
    </ConfirmContext.Provider>
  );
}
