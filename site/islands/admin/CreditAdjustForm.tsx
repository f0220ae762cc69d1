/**
 * 'Adjust credits': an amount (positive adds, negative removes) and a reason, checked here, then
 * confirmed in the action dialog. The server writes the ledger row and the audit row together.
 */
import { useId, useState, type SubmitEvent } from 'react';
import type { AdminUser } from '../../../server/contracts/admin.ts';
import { adjustCredits } from '../../lib/admin-api.ts';
import { useConfirmAction } from './ActionDialog.tsx';
import {
  REASON_MAX,
  adjustmentQuestion,
  checkCreditAdjustment,
  type AdjustmentCheck,
} from './credit-adjustment.ts';
import { formatCredits } from './format.ts';

interface CreditAdjustFormProps {
  user: AdminUser;
  /** Refresh the user's balance, ledger and the audit trail after a change. */
  onAdjusted: () => void;
}

type Errors = Extract<AdjustmentCheck, { ok: false }>['errors'];

export default function CreditAdjustForm({ user, onAdjusted }: CreditAdjustFormProps) {
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const confirmAction = useConfirmAction();
  const amountId = useId();
  const reasonId = useId();

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const check = checkCreditAdjustment(amount, reason, user.credits);
    if (!check.ok) {
      setErrors(check.errors);
      document.getElementById(check.errors.amount ? amountId : reasonId)?.focus();
      return;
    }
    setErrors({});
    const { value } = check;
    const after = user.credits + value.amount;
    const change = formatCredits(Math.abs(value.amount));
    confirmAction({
      question: adjustmentQuestion(value.amount, user.email),
      details: (
        <>
          <p>
            <strong>Reason:</strong> {value.reason}
          </p>
          <p>
            The balance goes from {formatCredits(user.credits)} to {formatCredits(after)}. A ledger
            entry with this reason is added, and the audit log records that you made the change.
          </p>
        </>
      ),
      confirmLabel: value.amount > 0 ? `Add ${change}` : `Remove ${change}`,
      tone: value.amount > 0 ? 'primary' : 'danger',
      run: async () => {
        const result = await adjustCredits(user.id, value);
        const balance = formatCredits(result.user.credits);
        return (
          result.message ||
          (value.amount > 0
            ? `Added ${change} to ${user.email}. New balance: ${balance}.`
            : `Removed ${change} from ${user.email}. New balance: ${balance}.`)
        );
      },
      onDone: () => {
        setAmount('');
        setReason('');
        onAdjusted();
      },
    });
  };

  return (
    <form
      className="admin-form"
      onSubmit={onSubmit}
      noValidate
      aria-labelledby={`${amountId}-title`}
    >
      <h3 id={`${amountId}-title`} className="admin-panel__title">
        Adjust credits
      </h3>
      <p className="admin-form__hint">
        A positive amount adds credits, a negative one removes them (never below zero).
      </p>
      <div className="admin-form__row">
        <div className="field admin-form__amount">
          <label htmlFor={amountId}>Amount</label>
          <input
            id={amountId}
            className="input"
            name="amount"
            inputMode="text"
            autoComplete="off"
            placeholder="50 or -20"
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
            aria-invalid={Boolean(errors.amount) || undefined}
            aria-describedby={errors.amount ? `${amountId}-error` : undefined}
          />
          {errors.amount && (
            <p id={`${amountId}-error`} className="admin-form__error">
              {errors.amount}
            </p>
          )}
        </div>
        <div className="field admin-form__reason">
          <label htmlFor={reasonId}>Reason</label>
          <input
            id={reasonId}
            className="input"
            name="reason"
            autoComplete="off"
            placeholder="e.g. Goodwill for a failed render"
            maxLength={REASON_MAX + 50}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            aria-invalid={Boolean(errors.reason) || undefined}
            aria-describedby={errors.reason ? `${reasonId}-error` : undefined}
          />
          {errors.reason && (
            <p id={`${reasonId}-error`} className="admin-form__error">
              {errors.reason}
            </p>
          )}
        </div>
      </div>
      <div className="admin-form__actions">
        <button type="submit" className="btn btn-primary btn-sm">
          Adjust credits
        </button>
      </div>
    </form>
  );
}
