/**
 * "Signing secret for webhook_url" on /account/api (issue 36): a request to POST /v1/videos may
 * name its own webhook_url, whose events are signed with this secret. Create it (or rotate it,
 * after a confirmation: the old one keeps signing for the overlap), shown once, and see its
 * deliveries, which go to many addresses, each named.
 */
import { useId, useRef, useState } from 'react';
import {
  WEBHOOK_ROTATION_OVERLAP_HOURS,
  type RequestSecretInfo,
} from '../../../shared/public-api.ts';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { renewRequestSecret } from '../../lib/api/api-access.ts';
import { apiErrorMessage } from '../../lib/api/http.ts';
import ConfirmDialog, { type ConfirmRequest } from './ConfirmDialog.tsx';
import DeliveriesToggle from './DeliveriesToggle.tsx';
import ShownOnce from './ShownOnce.tsx';
import { Dated, When } from './parts.tsx';

interface RequestSecretProps {
  secret: RequestSecretInfo | null;
  /** False until the webhook list has answered: no button before we know which one fits. */
  loaded: boolean;
  onChanged: () => void;
  locale: Locale;
}

export default function RequestSecret({ secret, loaded, onChanged, locale }: RequestSecretProps) {
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [shown, setShown] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const renew = async () => {
    const created = await renewRequestSecret();
    setShown(created.secret);
    onChanged();
  };

  const create = async () => {
    if (busy) return;
    setBusy(true);
    setError('');
    try {
      await renew();
    } catch (failure) {
      setError(apiErrorMessage(failure, m.apiaccess_failed(locale)));
    } finally {
      setBusy(false);
    }
  };

  const askRotate = () =>
    setConfirm({
      title: m.apiaccess_request_rotate_title(locale),
      text: m.apiaccess_rotate_text(locale, { hours: WEBHOOK_ROTATION_OVERLAP_HOURS }),
      confirmLabel: m.apiaccess_rotate_confirm(locale),
      danger: false,
      run: renew,
    });

  return (
    <section
      className="card account-section apiaccess-section"
      aria-labelledby={headingId}
      data-testid="apiaccess-request-secret"
    >
      <h2 id={headingId} ref={headingRef} tabIndex={-1}>
        {m.apiaccess_request_heading(locale)}
      </h2>
      <p>{m.apiaccess_request_lead(locale)}</p>
      {loaded && !secret && (
        <p className="account-section__note">{m.apiaccess_request_none(locale)}</p>
      )}
      {secret && (
        <dl className="account-facts apiaccess-facts">
          <dt>{m.apiaccess_created(locale)}</dt>
          <dd>
            <When iso={secret.created_at} locale={locale} />
          </dd>
        </dl>
      )}
      {secret?.previous_secret_expires_at && (
        <p className="account-section__note">
          <Dated
            iso={secret.previous_secret_expires_at}
            message={(date) => m.apiaccess_previous_secret(locale, { date })}
            locale={locale}
          />
        </p>
      )}
      {shown && (
        <ShownOnce
          heading={m.apiaccess_request_secret_heading(locale)}
          value={shown}
          note={m.apiaccess_secret_once_note(locale)}
          onDone={() => {
            setShown(null);
            headingRef.current?.focus();
          }}
          testId="apiaccess-request-secret-value"
          locale={locale}
        />
      )}
      {loaded && (
        <div className="apiaccess-actions">
          {secret ? (
            <button
              type="button"
              className="btn btn-secondary"
              aria-haspopup="dialog"
              onClick={askRotate}
            >
              {m.apiaccess_request_rotate(locale)}
            </button>
          ) : (
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => void create()}
              aria-busy={busy || undefined}
            >
              {busy && <span className="spinner spinner-sm" aria-hidden="true" />}
              {m.apiaccess_request_create(locale)}
            </button>
          )}
        </div>
      )}
      {error && (
        <p className="account-section__error" role="alert">
          {error}
        </p>
      )}
      {secret && <DeliveriesToggle endpointId={secret.id} showUrl locale={locale} />}
      <ConfirmDialog
        request={confirm}
        onClose={() => setConfirm(null)}
        fallbackFocusRef={headingRef}
        locale={locale}
      />
    </section>
  );
}
