/**
 * The form of a new API key: a name and the permissions it carries (every one checked at first).
 * The server's refusal (a name too long, the limit reached meanwhile) shows as it words it.
 */
import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import {
  API_SCOPES,
  MAX_API_KEY_NAME,
  type ApiScope,
  type CreatedApiKey,
} from '../../../shared/public-api.ts';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { createApiKey } from '../../lib/api/api-access.ts';
import { apiErrorMessage } from '../../lib/api/http.ts';

const SCOPE_TEXT: Record<ApiScope, (locale: Locale) => string> = {
  'videos:write': m.apiaccess_scope_videos_write,
  'videos:read': m.apiaccess_scope_videos_read,
  'credits:read': m.apiaccess_scope_credits_read,
};

interface CreateKeyFormProps {
  onCreated: (key: CreatedApiKey) => void;
  onCancel: () => void;
  locale: Locale;
}

export default function CreateKeyForm({ onCreated, onCancel, locale }: CreateKeyFormProps) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiScope[]>([...API_SCOPES]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const nameRef = useRef<HTMLInputElement>(null);
  const headingId = useId();
  const nameId = useId();
  const hintId = useId();
  const errorId = useId();

  useEffect(() => nameRef.current?.focus(), []);

  const toggle = (scope: ApiScope, on: boolean) =>
    setScopes((current) => API_SCOPES.filter((s) => (s === scope ? on : current.includes(s))));

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!name.trim()) {
      setError(m.apiaccess_keys_name_missing(locale));
      nameRef.current?.focus();
      return;
    }
    if (scopes.length === 0) {
      setError(m.apiaccess_keys_scopes_missing(locale));
      return;
    }
    setBusy(true);
    setError('');
    try {
      onCreated(await createApiKey(name.trim(), scopes));
    } catch (failure) {
      setError(apiErrorMessage(failure, m.apiaccess_failed(locale)));
      setBusy(false);
    }
  };

  return (
    <form
      className="apiaccess-form"
      aria-labelledby={headingId}
      onSubmit={(event) => void submit(event)}
      noValidate
      data-testid="apiaccess-key-form"
    >
      <h3 id={headingId} className="apiaccess-form__title">
        {m.apiaccess_keys_form_heading(locale)}
      </h3>
      <div className="field">
        <label htmlFor={nameId}>{m.apiaccess_keys_name(locale)}</label>
        <input
          ref={nameRef}
          id={nameId}
          className="input"
          value={name}
          onChange={(event) => setName(event.target.value)}
          maxLength={MAX_API_KEY_NAME}
          autoComplete="off"
          required
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
          aria-invalid={(error !== '' && !name.trim()) || undefined}
        />
        <p id={hintId} className="apiaccess-hint">
          {m.apiaccess_keys_name_hint(locale)}
        </p>
      </div>
      <fieldset className="apiaccess-choices">
        <legend>{m.apiaccess_keys_scopes(locale)}</legend>
        {API_SCOPES.map((scope) => (
          <label key={scope} className="apiaccess-choice">
            <input
              type="checkbox"
              checked={scopes.includes(scope)}
              onChange={(event) => toggle(scope, event.target.checked)}
            />
            <span>
              <code>{scope}</code> {SCOPE_TEXT[scope](locale)}
            </span>
          </label>
        ))}
      </fieldset>
      {error && (
        <p id={errorId} className="account-section__error" role="alert">
          {error}
        </p>
      )}
      <div className="apiaccess-actions">
        <button type="submit" className="btn btn-primary" aria-busy={busy || undefined}>
          {busy && <span className="spinner spinner-sm" aria-hidden="true" />}
          {m.apiaccess_keys_create(locale)}
        </button>
        <button type="button" className="btn btn-secondary" onClick={onCancel}>
          {m.apiaccess_cancel(locale)}
        </button>
      </div>
    </form>
  );
}
