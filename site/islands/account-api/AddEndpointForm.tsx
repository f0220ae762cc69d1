/**
 * The form of a new webhook endpoint: its URL, the events it gets (the video ones checked at
 * first) and, when credits.low is among them, the balance it fires below. The server checks the
 * address (https in production, no private addresses) and words its refusal.
 */
import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import {
  DEFAULT_CREDITS_LOW_THRESHOLD,
  WEBHOOK_EVENTS,
  type WebhookEndpointWithSecret,
  type WebhookEventType,
} from '../../../shared/public-api.ts';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { createWebhook } from '../../lib/api/api-access.ts';
import { apiErrorMessage } from '../../lib/api/http.ts';
import { parseThreshold } from './format.ts';

const EVENT_TEXT: Record<WebhookEventType, (locale: Locale) => string> = {
  'video.completed': m.apiaccess_event_video_completed,
  'video.failed': m.apiaccess_event_video_failed,
  'video.refunded': m.apiaccess_event_video_refunded,
  'credits.low': m.apiaccess_event_credits_low,
};

interface AddEndpointFormProps {
  onCreated: (endpoint: WebhookEndpointWithSecret) => void;
  onCancel: () => void;
  locale: Locale;
}

type Problem = 'url' | 'events' | 'threshold' | 'server' | null;

/** An address shape, the same in every language. */
const URL_EXAMPLE = 'https://example.com/webhooks';

export default function AddEndpointForm({ onCreated, onCancel, locale }: AddEndpointFormProps) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(
    WEBHOOK_EVENTS.filter((event) => event !== 'credits.low'),
  );
  const [threshold, setThreshold] = useState(String(DEFAULT_CREDITS_LOW_THRESHOLD));
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>(null);
  const [error, setError] = useState('');
  const urlRef = useRef<HTMLInputElement>(null);
  const thresholdRef = useRef<HTMLInputElement>(null);
  const headingId = useId();
  const urlId = useId();
  const urlHintId = useId();
  const thresholdId = useId();
  const thresholdHintId = useId();
  const errorId = useId();
  const lowBalance = events.includes('credits.low');

  useEffect(() => urlRef.current?.focus(), []);

  const toggle = (event: WebhookEventType, on: boolean) =>
    setEvents((current) => WEBHOOK_EVENTS.filter((e) => (e === event ? on : current.includes(e))));

  const refuse = (what: Exclude<Problem, null>, message: string) => {
    setProblem(what);
    setError(message);
    if (what === 'url') urlRef.current?.focus();
    if (what === 'threshold') thresholdRef.current?.focus();
  };

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!url.trim()) return refuse('url', m.apiaccess_hooks_url_missing(locale));
    if (events.length === 0) return refuse('events', m.apiaccess_hooks_events_missing(locale));
    const lowAt = lowBalance ? parseThreshold(threshold) : null;
    if (lowBalance && lowAt === null) {
      return refuse('threshold', m.apiaccess_hooks_threshold_invalid(locale));
    }
    setBusy(true);
    setProblem(null);
    setError('');
    try {
      onCreated(
        await createWebhook({
          url: url.trim(),
          events,
          ...(lowAt !== null && { credits_low_threshold: lowAt }),
        }),
      );
    } catch (failure) {
      refuse('server', apiErrorMessage(failure, m.apiaccess_failed(locale)));
      setBusy(false);
    }
  };

  const describedBy = (hint: string, own: Problem) =>
    problem === own || problem === 'server' ? `${hint} ${errorId}` : hint;

  return (
    <form
      className="apiaccess-form"
      aria-labelledby={headingId}
      onSubmit={(event) => void submit(event)}
      noValidate
      data-testid="apiaccess-endpoint-form"
    >
      <h3 id={headingId} className="apiaccess-form__title">
        {m.apiaccess_hooks_form_heading(locale)}
      </h3>
      <div className="field">
        <label htmlFor={urlId}>{m.apiaccess_hooks_url(locale)}</label>
        <input
          ref={urlRef}
          id={urlId}
          className="input"
          type="url"
          inputMode="url"
          autoComplete="url"
          spellCheck={false}
          placeholder={URL_EXAMPLE}
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          required
          aria-describedby={describedBy(urlHintId, 'url')}
          aria-invalid={problem === 'url' || undefined}
        />
        <p id={urlHintId} className="apiaccess-hint">
          {m.apiaccess_hooks_url_hint(locale)}
        </p>
      </div>
      <fieldset className="apiaccess-choices" aria-invalid={problem === 'events' || undefined}>
        <legend>{m.apiaccess_hooks_events(locale)}</legend>
        {WEBHOOK_EVENTS.map((type) => (
          <label key={type} className="apiaccess-choice">
            <input
              type="checkbox"
              checked={events.includes(type)}
              onChange={(event) => toggle(type, event.target.checked)}
            />
            <span>
              <code>{type}</code> {EVENT_TEXT[type](locale)}
            </span>
          </label>
        ))}
      </fieldset>
      {lowBalance && (
        <div className="field apiaccess-threshold">
          <label htmlFor={thresholdId}>{m.apiaccess_hooks_threshold(locale)}</label>
          <input
            ref={thresholdRef}
            id={thresholdId}
            className="input"
            inputMode="numeric"
            autoComplete="off"
            value={threshold}
            onChange={(event) => setThreshold(event.target.value)}
            aria-describedby={describedBy(thresholdHintId, 'threshold')}
            aria-invalid={problem === 'threshold' || undefined}
          />
          <p id={thresholdHintId} className="apiaccess-hint">
            {m.apiaccess_hooks_threshold_hint(locale)}
          </p>
        </div>
      )}
      {error && (
        <p id={errorId} className="account-section__error" role="alert">
          {error}
        </p>
      )}
      <div className="apiaccess-actions">
        <button type="submit" className="btn btn-primary" aria-busy={busy || undefined}>
          {busy && <span className="spinner spinner-sm" aria-hidden="true" />}
          {m.apiaccess_hooks_add(locale)}
        </button>
        <button type="button" className="btn btn-secondary" onClick={onCancel}>
          {m.apiaccess_cancel(locale)}
        </button>
      </div>
    </form>
  );
}
