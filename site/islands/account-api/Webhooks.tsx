/**
 * The webhook sections of /account/api (issue 36), from one list (GET /api/account/webhooks):
 * the user's endpoints (URL, events, low-balance threshold, failing or disabled, the previous
 * secret's expiry after a rotation) with Add, Rotate secret and Delete, each new secret shown
 * once; and the signing secret for requests' own webhook_url (RequestSecret.tsx).
 */
import { lazy, Suspense, useId, useRef, useState } from 'react';
import {
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_DISABLE_AFTER_DAYS,
  WEBHOOK_RETRY_HOURS,
  WEBHOOK_ROTATION_OVERLAP_HOURS,
  type WebhookEndpointInfo,
} from '../../../shared/public-api.ts';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { deleteWebhook, listWebhooks, rotateWebhookSecret } from '../../lib/api/api-access.ts';
import { formatCredits } from '../../lib/format.ts';
import ConfirmDialog, { type ConfirmRequest } from './ConfirmDialog.tsx';
import DeliveriesToggle from './DeliveriesToggle.tsx';
import { endpointState, type EndpointState } from './format.ts';
import { Dated, FormLoading, LoadFailed, StateBadge, When, type Tone } from './parts.tsx';
import RequestSecret from './RequestSecret.tsx';
import ShownOnce from './ShownOnce.tsx';
import { useLoad } from './use-load.ts';

// The form loads when it is opened: most visits only read the list.
const AddEndpointForm = lazy(() => import('./AddEndpointForm.tsx'));

const STATE: Record<EndpointState, [Tone, (locale: Locale) => string]> = {
  active: ['good', m.apiaccess_hook_state_active],
  failing: ['warn', m.apiaccess_hook_state_failing],
  disabled: ['bad', m.apiaccess_hook_state_disabled],
};

function EndpointItem({
  endpoint,
  onRotate,
  onDelete,
  locale,
}: {
  endpoint: WebhookEndpointInfo;
  onRotate: () => void;
  onDelete: () => void;
  locale: Locale;
}) {
  const [tone, label] = STATE[endpointState(endpoint)];
  return (
    <li className="apiaccess-item" data-testid="apiaccess-endpoint">
      <div className="apiaccess-item__head">
        <code className="apiaccess-item__url">{endpoint.url}</code>
        <StateBadge tone={tone}>{label(locale)}</StateBadge>
      </div>
      <dl className="account-facts apiaccess-facts">
        <dt>{m.apiaccess_hooks_events(locale)}</dt>
        <dd className="apiaccess-codes">
          {endpoint.events.map((event) => (
            <code key={event}>{event}</code>
          ))}
        </dd>
        {endpoint.events.includes('credits.low') && (
          <>
            <dt>{m.apiaccess_hook_threshold(locale)}</dt>
            <dd>{formatCredits(endpoint.credits_low_threshold, locale)}</dd>
          </>
        )}
        <dt>{m.apiaccess_created(locale)}</dt>
        <dd>
          <When iso={endpoint.created_at} locale={locale} />
        </dd>
      </dl>
      {endpoint.disabled_at ? (
        <p className="apiaccess-warning">
          <Dated
            iso={endpoint.disabled_at}
            message={(date) =>
              m.apiaccess_hook_disabled_at(locale, { date, days: WEBHOOK_DISABLE_AFTER_DAYS })
            }
            locale={locale}
          />
        </p>
      ) : (
        endpoint.failing_since && (
          <p className="apiaccess-warning">
            <Dated
              iso={endpoint.failing_since}
              message={(date) =>
                m.apiaccess_hook_failing_since(locale, { date, hours: WEBHOOK_RETRY_HOURS })
              }
              locale={locale}
            />
          </p>
        )
      )}
      {endpoint.previous_secret_expires_at && (
        <p className="account-section__note">
          <Dated
            iso={endpoint.previous_secret_expires_at}
            message={(date) => m.apiaccess_previous_secret(locale, { date })}
            locale={locale}
          />
        </p>
      )}
      <div className="apiaccess-actions">
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          aria-haspopup="dialog"
          onClick={onRotate}
          data-testid="apiaccess-rotate"
        >
          {m.apiaccess_hook_rotate(locale)}
        </button>
        <button
          type="button"
          className="btn btn-secondary btn-sm apiaccess-danger"
          aria-haspopup="dialog"
          aria-label={m.apiaccess_hook_delete_named(locale, { url: endpoint.url })}
          onClick={onDelete}
          data-testid="apiaccess-delete"
        >
          {m.apiaccess_hook_delete(locale)}
        </button>
      </div>
      <DeliveriesToggle endpointId={endpoint.id} locale={locale} />
    </li>
  );
}

/** A secret to show once: which endpoint it signs for, and the value. */
interface Shown {
  heading: string;
  value: string;
}

export default function Webhooks({ locale }: { locale: Locale }) {
  const headingId = useId();
  const limitId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  const { data, failed, reload } = useLoad(listWebhooks);
  const [adding, setAdding] = useState(false);
  const [shown, setShown] = useState<Shown | null>(null);
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);
  const [notice, setNotice] = useState('');

  const count = data?.items.length ?? 0;
  const full = count >= MAX_WEBHOOK_ENDPOINTS;
  const showSecret = (url: string, secret: string) =>
    setShown({ heading: m.apiaccess_hooks_secret_heading(locale, { url }), value: secret });

  const askRotate = (endpoint: WebhookEndpointInfo) =>
    setConfirm({
      title: m.apiaccess_rotate_title(locale, { url: endpoint.url }),
      text: m.apiaccess_rotate_text(locale, { hours: WEBHOOK_ROTATION_OVERLAP_HOURS }),
      confirmLabel: m.apiaccess_rotate_confirm(locale),
      danger: false,
      run: async () => {
        const rotated = await rotateWebhookSecret(endpoint.id);
        setNotice('');
        showSecret(rotated.url, rotated.secret);
        reload();
      },
    });

  const askDelete = (endpoint: WebhookEndpointInfo) =>
    setConfirm({
      title: m.apiaccess_delete_title(locale, { url: endpoint.url }),
      text: m.apiaccess_delete_text(locale),
      confirmLabel: m.apiaccess_delete_confirm(locale),
      danger: true,
      run: async () => {
        await deleteWebhook(endpoint.id);
        setShown(null);
        setNotice(m.apiaccess_delete_done(locale, { url: endpoint.url }));
        reload();
      },
    });

  return (
    <>
      <section
        className="card account-section apiaccess-section"
        aria-labelledby={headingId}
        data-testid="apiaccess-webhooks"
      >
        <h2 id={headingId} ref={headingRef} tabIndex={-1}>
          {m.apiaccess_hooks_heading(locale)}
        </h2>
        <p>{m.apiaccess_hooks_lead(locale)}</p>
        {shown && (
          <ShownOnce
            heading={shown.heading}
            value={shown.value}
            note={m.apiaccess_secret_once_note(locale)}
            onDone={() => {
              setShown(null);
              headingRef.current?.focus();
            }}
            testId="apiaccess-new-secret"
            locale={locale}
          />
        )}
        {adding ? (
          <Suspense fallback={<FormLoading locale={locale} />}>
            <AddEndpointForm
              onCreated={(endpoint) => {
                setAdding(false);
                setNotice('');
                showSecret(endpoint.url, endpoint.secret);
                reload();
              }}
              onCancel={() => {
                setAdding(false);
                requestAnimationFrame(() => addRef.current?.focus());
              }}
              locale={locale}
            />
          </Suspense>
        ) : (
          <div className="apiaccess-actions">
            <button
              ref={addRef}
              type="button"
              className="btn btn-primary"
              disabled={!data || full}
              aria-describedby={full ? limitId : undefined}
              onClick={() => setAdding(true)}
              data-testid="apiaccess-add-endpoint"
            >
              {m.apiaccess_hooks_add(locale)}
            </button>
          </div>
        )}
        {full && (
          <p id={limitId} className="account-section__note">
            {m.apiaccess_hooks_limit(locale, { max: MAX_WEBHOOK_ENDPOINTS })}
          </p>
        )}
        {failed !== null && <LoadFailed error={failed} onRetry={reload} locale={locale} />}
        {data &&
          (data.items.length === 0 ? (
            <p className="account-section__note">{m.apiaccess_hooks_empty(locale)}</p>
          ) : (
            <ul className="apiaccess-list">
              {data.items.map((endpoint) => (
                <EndpointItem
                  key={endpoint.id}
                  endpoint={endpoint}
                  onRotate={() => askRotate(endpoint)}
                  onDelete={() => askDelete(endpoint)}
                  locale={locale}
                />
              ))}
            </ul>
          ))}
        <p className="apiaccess-status" role="status">
          {notice}
        </p>
        <ConfirmDialog
          request={confirm}
          onClose={() => setConfirm(null)}
          fallbackFocusRef={headingRef}
          locale={locale}
        />
      </section>
      <RequestSecret
        secret={data?.request_secret ?? null}
        loaded={data !== null}
        onChanged={reload}
        locale={locale}
      />
    </>
  );
}
