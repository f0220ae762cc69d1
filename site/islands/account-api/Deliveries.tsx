/**
 * The recent deliveries of one endpoint, newest first (loaded on demand, see
 * DeliveriesToggle.tsx): each event's type, state, attempts and next attempt, opening onto every
 * attempt (when, the status code or "no answer", the start of the answer, how long it took) and
 * the payload as sent; Resend queues one again with the same webhook-id.
 */
import { useEffect, useState } from 'react';
import type { WebhookAttemptInfo, WebhookDeliveryInfo } from '../../../shared/public-api.ts';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { listDeliveries, resendDelivery } from '../../lib/api/api-access.ts';
import { apiErrorMessage } from '../../lib/api/http.ts';
import { formatNumber } from '../../lib/format.ts';
import { Dated, LoadFailed, StateBadge, When, type Tone } from './parts.tsx';

const PAGE_SIZE = 10;

const STATUS: Record<WebhookDeliveryInfo['status'], [Tone, (locale: Locale) => string]> = {
  pending: ['warn', m.apiaccess_delivery_pending],
  delivered: ['good', m.apiaccess_delivery_delivered],
  failed: ['bad', m.apiaccess_delivery_failed],
};

/** The payload indented for reading; as it came when it is not JSON. */
function pretty(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

function Attempt({ attempt, locale }: { attempt: WebhookAttemptInfo; locale: Locale }) {
  const answered = attempt.status_code !== null;
  return (
    <li className="apiaccess-attempt">
      <div className="apiaccess-attempt__head">
        <When iso={attempt.attempted_at} locale={locale} />
        <StateBadge
          tone={
            answered && attempt.status_code! >= 200 && attempt.status_code! < 300 ? 'good' : 'bad'
          }
        >
          {answered ? attempt.status_code : m.apiaccess_attempt_no_answer(locale)}
        </StateBadge>
        <span className="apiaccess-muted">
          {m.apiaccess_attempt_duration(locale, { ms: formatNumber(attempt.duration_ms, locale) })}
        </span>
      </div>
      {attempt.response && <pre className="apiaccess-pre">{attempt.response}</pre>}
    </li>
  );
}

function DeliveryItem({
  delivery,
  showUrl,
  onResent,
  locale,
}: {
  delivery: WebhookDeliveryInfo;
  showUrl: boolean;
  onResent: (delivery: WebhookDeliveryInfo) => void;
  locale: Locale;
}) {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; failed: boolean } | null>(null);
  const [tone, label] = STATUS[delivery.status];

  const resend = async () => {
    if (busy) return;
    setBusy(true);
    setMessage(null);
    try {
      onResent(await resendDelivery(delivery.id));
      setMessage({ text: m.apiaccess_delivery_resent(locale), failed: false });
    } catch (failure) {
      setMessage({ text: apiErrorMessage(failure, m.apiaccess_failed(locale)), failed: true });
    } finally {
      setBusy(false);
    }
  };

  return (
    <li className="apiaccess-delivery" data-testid="apiaccess-delivery">
      <div className="apiaccess-delivery__head">
        <code>{delivery.event_type}</code>
        <StateBadge tone={tone}>{label(locale)}</StateBadge>
        <span className="apiaccess-muted">
          {m.apiaccess_delivery_attempts(locale, { count: delivery.attempts.length })}
        </span>
        {delivery.next_attempt_at && (
          <span className="apiaccess-muted">
            <Dated
              iso={delivery.next_attempt_at}
              message={(date) => m.apiaccess_delivery_next(locale, { date })}
              locale={locale}
            />
          </span>
        )}
      </div>
      <details className="apiaccess-details">
        <summary>{m.apiaccess_delivery_details(locale)}</summary>
        <dl className="account-facts apiaccess-facts">
          <dt>{m.apiaccess_delivery_id(locale)}</dt>
          <dd>
            <code>{delivery.event_id}</code>
          </dd>
          {showUrl && (
            <>
              <dt>{m.apiaccess_delivery_url(locale)}</dt>
              <dd>
                <code>{delivery.url}</code>
              </dd>
            </>
          )}
          <dt>{m.apiaccess_created(locale)}</dt>
          <dd>
            <When iso={delivery.created_at} locale={locale} />
          </dd>
        </dl>
        <p className="apiaccess-label">{m.apiaccess_delivery_attempts_label(locale)}</p>
        {delivery.attempts.length === 0 ? (
          <p className="apiaccess-muted">{m.apiaccess_delivery_no_attempts(locale)}</p>
        ) : (
          <ol className="apiaccess-attempts">
            {delivery.attempts.map((attempt, index) => (
              <Attempt key={`${attempt.attempted_at}-${index}`} attempt={attempt} locale={locale} />
            ))}
          </ol>
        )}
        <p className="apiaccess-label">{m.apiaccess_delivery_payload(locale)}</p>
        <pre className="apiaccess-pre">{pretty(delivery.payload)}</pre>
      </details>
      <div className="apiaccess-actions">
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={() => void resend()}
          aria-busy={busy || undefined}
        >
          {busy && <span className="spinner spinner-sm" aria-hidden="true" />}
          {m.apiaccess_delivery_resend(locale)}
        </button>
        <span
          className={message?.failed ? 'account-section__error' : 'apiaccess-muted'}
          role={message?.failed ? 'alert' : 'status'}
        >
          {message?.text}
        </span>
      </div>
    </li>
  );
}

export default function Deliveries({
  endpointId,
  showUrl,
  locale,
}: {
  endpointId: string;
  showUrl: boolean;
  locale: Locale;
}) {
  const [items, setItems] = useState<WebhookDeliveryInfo[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState<unknown>(null);

  // Each request is a new object: the effect fetches it, and it is answered once the page (or the
  // failure) for it came back. Show older asks for the page after the last one shown.
  const [request, setRequest] = useState<{ from: string | null }>({ from: null });
  const [answered, setAnswered] = useState<{ from: string | null } | null>(null);
  const loading = answered !== request;

  useEffect(() => {
    let active = true;
    listDeliveries(endpointId, request.from, PAGE_SIZE).then(
      (page) => {
        if (!active) return;
        setItems((shown) => (request.from ? [...shown, ...page.items] : page.items));
        setCursor(page.next_cursor);
        setLoaded(true);
        setFailed(null);
        setAnswered(request);
      },
      (error: unknown) => {
        if (!active) return;
        console.error('[account-api] deliveries failed to load', error);
        setFailed(error ?? new Error('load failed'));
        setAnswered(request);
      },
    );
    return () => {
      active = false;
    };
  }, [endpointId, request]);

  const load = (from: string | null) => setRequest({ from });

  const replace = (next: WebhookDeliveryInfo) =>
    setItems((shown) => shown.map((item) => (item.id === next.id ? next : item)));

  return (
    <div className="apiaccess-deliveries" aria-busy={loading || undefined}>
      {!loaded && loading && (
        <p className="account-section__note" role="status">
          {m.apiaccess_deliveries_loading(locale)}
        </p>
      )}
      {loaded && items.length === 0 && (
        <p className="account-section__note">{m.apiaccess_deliveries_empty(locale)}</p>
      )}
      {items.length > 0 && (
        <ul className="apiaccess-list">
          {items.map((delivery) => (
            <DeliveryItem
              key={delivery.id}
              delivery={delivery}
              showUrl={showUrl}
              onResent={replace}
              locale={locale}
            />
          ))}
        </ul>
      )}
      {failed !== null && (
        <LoadFailed error={failed} onRetry={() => load(cursor)} locale={locale} />
      )}
      {cursor && !failed && (
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={() => load(cursor)}
          disabled={loading}
        >
          {m.apiaccess_deliveries_more(locale)}
        </button>
      )}
    </div>
  );
}
