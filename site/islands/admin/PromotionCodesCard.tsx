/**
 * Promotion codes on the admin overview (issue 37, item 1): make a code (percent or amount off;
 * packs, plans or both; first purchase only; at most so many uses; an expiry), see each code's
 * uses, switch a code off or on. With Stripe the code is made there too; the audit log records
 * every change.
 */
import { useCallback, useId, useState, type SubmitEvent } from 'react';
import {
  isPromotionCode,
  type AdminPromotionCode,
  type CreatePromotionCodeRequest,
  type PromotionTarget,
} from '../../../shared/promotions.ts';
import { apiErrorMessage } from '../../lib/api/http.ts';
import {
  createPromotionCode,
  listPromotionCodes,
  setPromotionCodeActive,
} from '../../lib/api/admin-promotions.ts';
import { useConfirmAction } from './ActionDialog.tsx';
import Badge from './Badge.tsx';
import DataTable, { dateColumn, type Column } from './DataTable.tsx';
import Field from './Field.tsx';
import { Empty, Loaded } from './ListStates.tsx';
import PromotionRedemptions from './PromotionRedemptions.tsx';
import { useAdminData } from './use-admin-data.ts';

const TARGETS: Record<PromotionTarget, string> = {
  all: 'Plans and packs',
  packs: 'Credit packs',
  plans: 'Plans (first payment)',
};

const discountText = (c: AdminPromotionCode) =>
  c.percent_off !== null ? `${c.percent_off}% off` : `$${(c.amount_off ?? 0).toFixed(2)} off`;

type Errors = Partial<Record<'code' | 'value' | 'max' | 'form', string>>;

/** The form's text as the API's request, or what is wrong with it. */
function readForm(form: {
  code: string;
  kind: 'percent' | 'amount';
  value: string;
  target: PromotionTarget;
  firstOnly: boolean;
  max: string;
  expires: string;
}): { ok: true; request: CreatePromotionCodeRequest } | { ok: false; errors: Errors } {
  const errors: Errors = {};
  const code = form.code.trim();
  if (!isPromotionCode(code)) errors.code = '3 to 32 letters, digits or dashes, e.g. SPRING-25.';
  const value = Number(form.value);
  if (form.kind === 'percent' && !(Number.isInteger(value) && value >= 1 && value <= 100)) {
    errors.value = 'A whole percentage from 1 to 100.';
  }
  if (form.kind === 'amount' && !(value >= 0.01 && Math.round(value * 100) === value * 100)) {
    errors.value = 'An amount in dollars, e.g. 5 or 4.50.';
  }
  const max = form.max.trim() === '' ? null : Number(form.max);
  if (max !== null && !(Number.isInteger(max) && max >= 1))
    errors.max = 'A whole number, 1 or more.';
  if (Object.keys(errors).length) return { ok: false, errors };
  return {
    ok: true,
    request: {
      code,
      ...(form.kind === 'percent' ? { percent_off: value } : { amount_off: value }),
      applies_to: form.target,
      first_purchase_only: form.firstOnly,
      max_redemptions: max,
      // The end of the chosen day, UTC.
      expires_at: form.expires ? `${form.expires}T23:59:59Z` : null,
    },
  };
}

function CreateCodeForm({ onCreated }: { onCreated: () => void }) {
  const [code, setCode] = useState('');
  const [kind, setKind] = useState<'percent' | 'amount'>('percent');
  const [value, setValue] = useState('');
  const [target, setTarget] = useState<PromotionTarget>('all');
  const [firstOnly, setFirstOnly] = useState(false);
  const [max, setMax] = useState('');
  const [expires, setExpires] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState('');
  const id = useId();

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const read = readForm({ code, kind, value, target, firstOnly, max, expires });
    setDone('');
    if (!read.ok) {
      setErrors(read.errors);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const made = (await createPromotionCode(read.request)).data;
      setDone(`${made.code} was created: ${discountText(made)}.`);
      setCode('');
      setValue('');
      setMax('');
      setExpires('');
      onCreated();
    } catch (error) {
      setErrors({ form: apiErrorMessage(error, 'The code could not be created. Try again.') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="admin-form admin-promo-form" onSubmit={(e) => void onSubmit(e)} noValidate>
      <div className="admin-promo-form__grid">
        <Field
          id={`${id}-code`}
          label="Code"
          value={code}
          onValue={setCode}
          autoComplete="off"
          placeholder="SPRING-25"
          maxLength={32}
          error={errors.code}
        />
        <div className="field">
          <label htmlFor={`${id}-kind`}>Discount</label>
          <select
            id={`${id}-kind`}
            className="input select"
            value={kind}
            onChange={(e) => setKind(e.target.value as 'percent' | 'amount')}
          >
            <option value="percent">Percent off</option>
            <option value="amount">Amount off (USD)</option>
          </select>
        </div>
        <Field
          id={`${id}-value`}
          label={kind === 'percent' ? 'Percent' : 'Dollars'}
          value={value}
          onValue={setValue}
          inputMode="decimal"
          autoComplete="off"
          placeholder={kind === 'percent' ? '20' : '5.00'}
          error={errors.value}
        />
        <div className="field">
          <label htmlFor={`${id}-target`}>Applies to</label>
          <select
            id={`${id}-target`}
            className="input select"
            value={target}
            onChange={(e) => setTarget(e.target.value as PromotionTarget)}
          >
            {Object.entries(TARGETS).map(([key, label]) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <Field
          id={`${id}-max`}
          label="Uses at most (empty: no limit)"
          value={max}
          onValue={setMax}
          inputMode="numeric"
          autoComplete="off"
          error={errors.max}
        />
        <Field
          id={`${id}-expires`}
          label="Expires after (empty: never)"
          type="date"
          value={expires}
          onValue={setExpires}
        />
      </div>
      <label className="admin-promo-form__check">
        <input
          type="checkbox"
          checked={firstOnly}
          onChange={(e) => setFirstOnly(e.target.checked)}
        />
        First purchase only (customers who have never paid)
      </label>
      {errors.form && (
        <p className="admin-form__error" role="alert">
          {errors.form}
        </p>
      )}
      <p className="admin-form__hint" role="status">
        {done}
      </p>
      <div className="admin-form__actions">
        <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
          {busy ? 'Creating…' : 'Create code'}
        </button>
      </div>
    </form>
  );
}

export default function PromotionCodesCard() {
  // Keyset pages: the cursors of the pages before this one, and this one's (none: the first).
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const load = useCallback(() => listPromotionCodes(cursor).then((body) => body.data), [cursor]);
  const state = useAdminData(load);
  const created = useCallback(() => {
    // A new code is the newest: show the first page, where it is.
    if (cursors.length) setCursors([]);
    else state.reload();
  }, [cursors.length, state]);
  const confirmAction = useConfirmAction();
  const [shown, setShown] = useState<string | null>(null);

  const askToggle = (c: AdminPromotionCode) =>
    confirmAction({
      question: c.active ? `Switch off the code ${c.code}?` : `Switch the code ${c.code} back on?`,
      details: (
        <p>
          {c.active
            ? 'Customers can no longer use it, here or in Stripe’s own field. Checkouts already opened with it keep their discount.'
            : 'Customers can use it again until it expires or runs out of uses.'}{' '}
          The audit log records the change.
        </p>
      ),
      confirmLabel: c.active ? 'Switch off' : 'Switch on',
      tone: c.active ? 'danger' : 'primary',
      run: async () => {
        const saved = (await setPromotionCodeActive(c.code, !c.active)).data;
        return `${saved.code} is ${saved.active ? 'on' : 'off'}.`;
      },
      onDone: state.reload,
    });

  const columns: Column<AdminPromotionCode>[] = [
    {
      header: 'Code',
      className: 'is-wide',
      cell: (c) => (
        <>
          <code className="admin-id">{c.code}</code>
          <span className="admin-table__sub">
            {discountText(c)} · {TARGETS[c.applies_to]}
            {c.first_purchase_only ? ' · first purchase' : ''}
          </span>
        </>
      ),
    },
    {
      header: 'Uses',
      className: 'is-nowrap',
      cell: (c) =>
        `${c.redemptions}${c.max_redemptions !== null ? ` of ${c.max_redemptions}` : ''}`,
    },
    {
      header: 'Expires',
      className: 'is-nowrap',
      cell: (c) => (c.expires_at ? c.expires_at.slice(0, 10) : 'Never'),
    },
    dateColumn('Created', (c) => c.created_at),
    {
      header: 'State',
      cell: (c) =>
        c.active ? <Badge tone="good">Active</Badge> : <Badge tone="neutral">Off</Badge>,
    },
    {
      header: 'Actions',
      headerHidden: true,
      className: 'is-actions',
      cell: (c) => (
        <span className="admin-promo__actions">
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            aria-expanded={shown === c.code}
            onClick={() => setShown(shown === c.code ? null : c.code)}
          >
            Uses<span className="sr-only"> of {c.code}</span>
          </button>
          <button
            type="button"
            className={`btn btn-sm ${c.active ? 'btn-danger' : 'btn-secondary'}`}
            onClick={() => askToggle(c)}
            data-testid="admin-promo-toggle"
          >
            {c.active ? 'Switch off' : 'Switch on'}
            <span className="sr-only"> {c.code}</span>
          </button>
        </span>
      ),
    },
  ];

  return (
    <article className="admin-card admin-card--wide" data-testid="admin-promotion-codes">
      <h3 className="admin-card__label">Promotion codes</h3>
      <CreateCodeForm onCreated={created} />
      <Loaded state={state} what="the promotion codes">
        {(data) =>
          data.codes.length === 0 ? (
            <Empty title="No promotion codes yet.">Create one above.</Empty>
          ) : (
            <>
              <DataTable
                columns={columns}
                rows={data.codes}
                captionId="admin-promotion-codes-caption"
                caption={`Promotion codes, newest first (page ${cursors.length + 1})`}
                rowTestId="admin-promo-row"
                busy={state.loading}
              />
              {(cursors.length > 0 || data.has_more) && (
                <div className="admin-promo__pages">
                  <button
                    type="button"
                    className="btn btn-secondary btn-sm"
                    disabled={cursors.length === 0 || state.loading}
                    onClick={() => setCursors(cursors.slice(0, -1))}
                  >
                    Newer codes
                  </button>
                  <button
                    type="button"
                    className="btn btn-secondary btn-sm"
                    disabled={!data.has_more || !data.next_cursor || state.loading}
                    onClick={() => data.next_cursor && setCursors([...cursors, data.next_cursor])}
                  >
                    Older codes
                  </button>
                </div>
              )}
            </>
          )
        }
      </Loaded>
      {shown && <PromotionRedemptions code={shown} />}
    </article>
  );
}
