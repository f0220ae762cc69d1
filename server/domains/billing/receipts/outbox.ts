/**
 * The receipts outbox (issue 37, item 3): `writeReceipt` runs inside the transaction of the money
 * event it reports (domains/billing/money-events.ts), so a receipt exists exactly when its event
 * committed, and its unique source key makes one receipt per payment, renewal, refund or dispute
 * outcome whoever records it again. The sender (sender.ts) mails it after the commit: woken at
 * once in this process, found by its polling otherwise (another instance, or a crash before the
 * wake-up).
 */
import { sql } from 'drizzle-orm';
import { afterCommit } from '../../../core/after-commit.ts';
import type { DbOrTx } from '../../../core/db.ts';
import type { MoneyEvent } from '../../../contracts/money-events.ts';
import { receiptPayload, receiptSourceKey } from './payload.ts';

/** The senders running in this process, woken when a receipt commits. */
const wakers = new Set<() => void>();

/** Registers a sender's wake-up (sender.ts); returns its removal. */
export function onReceiptCommitted(wake: () => void): () => void {
  wakers.add(wake);
  return () => wakers.delete(wake);
}

/**
 * Writes the receipt of `event` in `tx` (nothing when its source already has one) and wakes this
 * process's senders once the transaction commits. The number is taken from receipt_number_seq:
 * unique and never reused (a conflict leaves a gap, not a duplicate).
 */
export async function writeReceipt(tx: DbOrTx, event: MoneyEvent): Promise<void> {
  const payload = JSON.stringify(receiptPayload(event));
  await tx.execute(
    sql`insert into receipt_emails (user_id, kind, source_key, receipt_number, locale, payload)
        values (${event.userId}, ${event.kind}, ${receiptSourceKey(event)},
                'R-' || nextval('receipt_number_seq'), ${event.locale}, ${payload}::jsonb)
        on conflict (source_key) do nothing`,
  );
  afterCommit(tx, () => {
    for (const wake of wakers) wake();
  });
}
