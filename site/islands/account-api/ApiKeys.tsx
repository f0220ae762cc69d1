/**
 * The "API keys" section of /account/api (issue 36): the user's keys (name, prefix, permissions,
 * created, last used, revoked), "N of 10" in use, a new key shown once, and revoking after a
 * confirmation. Create is disabled, with the reason, while every allowed key is active.
 */
import { lazy, Suspense, useId, useRef, useState } from 'react';
import { MAX_API_KEYS, type ApiKeyInfo, type CreatedApiKey } from '../../../shared/public-api.ts';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { listApiKeys, revokeApiKey } from '../../lib/api/api-access.ts';
import ConfirmDialog, { type ConfirmRequest } from './ConfirmDialog.tsx';
import { activeKeyCount, keyPreview } from './format.ts';
import { FormLoading, LoadFailed, StateBadge, When } from './parts.tsx';
import ShownOnce from './ShownOnce.tsx';
import { useLoad } from './use-load.ts';

// The form loads when it is opened: most visits only read the list.
const CreateKeyForm = lazy(() => import('./CreateKeyForm.tsx'));

function KeyItem({
  apiKey,
  onRevoke,
  locale,
}: {
  apiKey: ApiKeyInfo;
  onRevoke: () => void;
  locale: Locale;
}) {
  const revoked = apiKey.revoked_at !== null;
  return (
    <li className="apiaccess-item" data-testid="apiaccess-key" data-revoked={revoked || undefined}>
      <div className="apiaccess-item__head">
        <strong className="apiaccess-item__name">{apiKey.name}</strong>
        {revoked ? (
          <StateBadge tone="neutral">{m.apiaccess_key_revoked(locale)}</StateBadge>
        ) : (
          <StateBadge tone="good">{m.apiaccess_key_active(locale)}</StateBadge>
        )}
      </div>
      <code className="apiaccess-item__code" data-testid="apiaccess-key-prefix">
        {keyPreview(apiKey.prefix)}
      </code>
      <dl className="account-facts apiaccess-facts">
        <dt>{m.apiaccess_keys_scopes(locale)}</dt>
        <dd className="apiaccess-codes">
          {apiKey.scopes.map((scope) => (
            <code key={scope}>{scope}</code>
          ))}
        </dd>
        <dt>{m.apiaccess_created(locale)}</dt>
        <dd>
          <When iso={apiKey.created_at} locale={locale} />
        </dd>
        <dt>{m.apiaccess_key_last_used(locale)}</dt>
        <dd>
          {apiKey.last_used_at ? (
            <When iso={apiKey.last_used_at} locale={locale} />
          ) : (
            m.apiaccess_never(locale)
          )}
        </dd>
        {apiKey.revoked_at && (
          <>
            <dt>{m.apiaccess_key_revoked_at(locale)}</dt>
            <dd>
              <When iso={apiKey.revoked_at} locale={locale} />
            </dd>
          </>
        )}
      </dl>
      {!revoked && (
        <div className="apiaccess-actions">
          <button
            type="button"
            className="btn btn-secondary btn-sm apiaccess-danger"
            aria-haspopup="dialog"
            aria-label={m.apiaccess_key_revoke_named(locale, { name: apiKey.name })}
            onClick={onRevoke}
          >
            {m.apiaccess_key_revoke(locale)}
          </button>
        </div>
      )}
    </li>
  );
}

export default function ApiKeys({ locale }: { locale: Locale }) {
  const headingId = useId();
  const limitId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const createRef = useRef<HTMLButtonElement>(null);
  const { data, failed, reload } = useLoad(listApiKeys);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);
  const [notice, setNotice] = useState('');

  const active = data ? activeKeyCount(data.items) : 0;
  const max = data?.max ?? MAX_API_KEYS;
  const full = active >= max;

  const askRevoke = (apiKey: ApiKeyInfo) =>
    setConfirm({
      title: m.apiaccess_revoke_title(locale, { name: apiKey.name }),
      text: m.apiaccess_revoke_text(locale),
      confirmLabel: m.apiaccess_revoke_confirm(locale),
      danger: true,
      run: async () => {
        await revokeApiKey(apiKey.id);
        // The key shown once is no longer worth copying.
        if (created?.id === apiKey.id) setCreated(null);
        setNotice(m.apiaccess_revoke_done(locale, { name: apiKey.name }));
        reload();
      },
    });

  return (
    <section
      className="card account-section apiaccess-section"
      aria-labelledby={headingId}
      data-testid="apiaccess-keys"
    >
      <h2 id={headingId} ref={headingRef} tabIndex={-1}>
        {m.apiaccess_keys_heading(locale)}
      </h2>
      <p>{m.apiaccess_keys_lead(locale)}</p>
      {data && (
        <p className="apiaccess-count" data-testid="apiaccess-key-count">
          {m.apiaccess_keys_count(locale, { count: active, max })}
        </p>
      )}
      {created && (
        <ShownOnce
          heading={m.apiaccess_keys_created_heading(locale, { name: created.name })}
          value={created.key}
          note={m.apiaccess_keys_once_note(locale)}
          onDone={() => {
            setCreated(null);
            headingRef.current?.focus();
          }}
          testId="apiaccess-new-key"
          locale={locale}
        />
      )}
      {creating ? (
        <Suspense fallback={<FormLoading locale={locale} />}>
          <CreateKeyForm
            onCreated={(key) => {
              setCreating(false);
              setNotice('');
              setCreated(key);
              reload();
            }}
            onCancel={() => {
              setCreating(false);
              // The button that opened the form is back in its place.
              requestAnimationFrame(() => createRef.current?.focus());
            }}
            locale={locale}
          />
        </Suspense>
      ) : (
        <div className="apiaccess-actions">
          <button
            ref={createRef}
            type="button"
            className="btn btn-primary"
            disabled={!data || full}
            aria-describedby={full ? limitId : undefined}
            onClick={() => setCreating(true)}
            data-testid="apiaccess-create-key"
          >
            {m.apiaccess_keys_create(locale)}
          </button>
        </div>
      )}
      {full && (
        <p id={limitId} className="account-section__note">
          {m.apiaccess_keys_limit(locale, { max })}
        </p>
      )}
      {failed !== null && <LoadFailed error={failed} onRetry={reload} locale={locale} />}
      {data &&
        (data.items.length === 0 ? (
          <p className="account-section__note">{m.apiaccess_keys_empty(locale)}</p>
        ) : (
          <ul className="apiaccess-list">
            {data.items.map((apiKey) => (
              <KeyItem
                key={apiKey.id}
                apiKey={apiKey}
                onRevoke={() => askRevoke(apiKey)}
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
  );
}
