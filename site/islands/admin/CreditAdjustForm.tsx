/**
 * 'Adjust credits': an amount (positive adds, negative removes) and a reason, checked here, then
 * confirmed in the action dialog. The server writes the ledger row and the audit row together.
 */
import { useId, useState, type SubmitEvent } from 'react';
import type { AdminUser } from '../../../shared/api/admin.ts';
import { adjustCredits } from '../../lib/api/admin.ts';
import { useConfirmAction } from './ActionDialog.tsx';
import { ADJUST_REASON_MAX } from '../../../shared/admin.ts';
import {
  adjustmentQuestion,
  checkCreditAdjustment,
  type AdjustmentCheck,
} from './credit-adjustment.ts';
import Field from './Field.tsx';
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
        <Field
          id={amountId}
          label="Amount"
          className="admin-form__amount"
          name="amount"
          inputMode="text"
          autoComplete="off"
          placeholder="50 or -20"
          value={amount}
          onValue={setAmount}
          error={errors.amount}
        />
        <Field
          id={reasonId}
          label="Reason"
          className="admin-form__reason"
          name="reason"
          autoComplete="off"
          placeholder="e.g. Goodwill for a failed render"
          maxLength={ADJUST_REASON_MAX + 50}
          value={reason}
          onValue={setReason}
          error={errors.reason}
        />
      </div>
      <div className="admin-form__actions">
        <button type="submit" className="btn btn-primary btn-sm">
          Adjust credits
        </button>
      </div>
    </form>
  );
}
