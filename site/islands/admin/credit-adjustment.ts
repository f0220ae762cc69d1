/**
 * The 'Adjust credits' form's rules, checked before the confirmation opens. The server applies the
 * same ones (AdjustCreditsBody, and the balance check in the same transaction as the ledger row);
 * checking here first gives the admin the reason next to the field instead of after a round trip.
 */
import {
  ADJUST_REASON_MAX as REASON_MAX,
  ADJUST_REASON_MIN as REASON_MIN,
  ADMIN_MESSAGES,
  CREDIT_ADJUST_LIMIT,
} from '../../../shared/admin.ts';
import { formatCredits } from './format.ts';

interface CreditAdjustment {
  amount: number;
  reason: string;
}

export type AdjustmentCheck =
  | { ok: true; value: CreditAdjustment }
  | { ok: false; errors: { amount?: string; reason?: string } };

/** Whole numbers only, with an optional sign: "50", "+50", "-20". */
const AMOUNT_PATTERN = /^[+-]?\d+$/;

/** The typed amount without spaces, and a typographic minus read as "-". */
function compactAmount(text: string): string {
  return text.replace(/\s/g, '').replace(/^\u2212/, '-');
}

function amountError(text: string, balance: number): string | undefined {
  const compact = compactAmount(text);
  if (compact === '') return 'Enter an amount: 50 adds 50 credits, -20 removes 20.';
  if (!AMOUNT_PATTERN.test(compact)) {
    return 'The amount must be a whole number of credits, such as 50 or -20.';
  }
  const amount = Number(compact);
  if (amount === 0)
    return 'The amount cannot be 0: use a positive number to add, negative to remove.';
  if (Math.abs(amount) > CREDIT_ADJUST_LIMIT) {
    return `The amount must be between -${CREDIT_ADJUST_LIMIT.toLocaleString()} and ${CREDIT_ADJUST_LIMIT.toLocaleString()} credits.`;
  }
  if (balance + amount < 0) {
    // The server's wording for the same refusal.
    return ADMIN_MESSAGES.overdraft(balance);
  }
  return undefined;
}

function reasonError(reason: string): string | undefined {
  if (reason.length < REASON_MIN) {
    return `Give a reason of at least ${REASON_MIN} characters; it is kept with the ledger entry.`;
  }
  if (reason.length > REASON_MAX) {
    return `Keep the reason to ${REASON_MAX} characters or fewer (it has ${reason.length}).`;
  }
  return undefined;
}

/** Reads the form's text fields against the user's current balance. */
export function checkCreditAdjustment(
  amountText: string,
  reasonText: string,
  balance: number,
): AdjustmentCheck {
  const reason = reasonText.trim().replace(/\s+/g, ' ');
  const errors = { amount: amountError(amountText, balance), reason: reasonError(reason) };
  if (errors.amount || errors.reason) return { ok: false, errors };
  const amount = Number(compactAmount(amountText));
  return { ok: true, value: { amount, reason } };
}

/** The confirmation's question: "Add 50 credits to ann@example.com?" */
export function adjustmentQuestion(amount: number, email: string): string {
  return amount > 0
    ? `Add ${formatCredits(amount)} to ${email}?`
    : `Remove ${formatCredits(-amount)} from ${email}?`;
}
