/**
 * A secret shown once (a new API key, a webhook signing secret): the value, a Copy button and the
 * warning that it will not be shown again. Its heading takes focus when it appears, so a screen
 * reader announces it; Done hides it for good.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';

interface ShownOnceProps {
  heading: string;
  value: string;
  /** "You won't see this key again…" */
  note: string;
  onDone: () => void;
  testId: string;
  locale: Locale;
}

export default function ShownOnce({
  heading,
  value,
  note,
  onDone,
  testId,
  locale,
}: ShownOnceProps) {
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const valueRef = useRef<HTMLElement>(null);
  const [status, setStatus] = useState('');

  useEffect(() => headingRef.current?.focus(), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setStatus(m.apiaccess_copied(locale));
    } catch (error) {
      // No clipboard access (an insecure origin, a refused permission): select it for the user.
      console.error('[account-api] copy failed', error);
      const node = valueRef.current;
      const selection = window.getSelection();
      if (node && selection) selection.selectAllChildren(node);
      setStatus(m.apiaccess_copy_failed(locale));
    }
  };

  return (
    <div className="apiaccess-once" role="group" aria-labelledby={headingId} data-testid={testId}>
      <h3 id={headingId} ref={headingRef} tabIndex={-1} className="apiaccess-once__title">
        {heading}
      </h3>
      <p className="apiaccess-once__note">{note}</p>
      <div className="apiaccess-once__row">
        <code ref={valueRef} className="apiaccess-once__value" data-testid={`${testId}-value`}>
          {value}
        </code>
        <button type="button" className="btn btn-primary btn-sm" onClick={() => void copy()}>
          {m.apiaccess_copy(locale)}
        </button>
      </div>
      <p className="apiaccess-once__status" role="status">
        {status}
      </p>
      <button type="button" className="btn btn-secondary btn-sm" onClick={onDone}>
        {m.apiaccess_once_done(locale)}
      </button>
    </div>
  );
}
