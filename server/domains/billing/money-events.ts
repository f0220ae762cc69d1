/**
 * The money events of issue 37 (server/contracts/money-events.ts): a confirmed payment (a pack,
 * or a plan's first period), a renewal, a refund, and a dispute's outcome. Billing calls
 * `recordMoneyEvent` inside the transaction that applies each one (its ledger rows), so what
 * follows from it commits or rolls back with it, and a replayed webhook (whose effect is
 * skipped) records nothing twice:
 * - the receipt email's outbox row (receipts/outbox.ts; sent after the commit, once per event);
 * - the user's running value of a credit (credits domain; a video's revenue reads it).
 */
import type { Tx } from '../../core/db.ts';
import type { MoneyEvent } from '../../contracts/money-events.ts';
import { writeReceipt } from './receipts/outbox.ts';
import { applyToCreditValue } from '../credits/service.ts';

export type { MoneyEvent };

/** Records a money event's consequences in `tx`, the transaction that applies the event. */
export async function recordMoneyEvent(tx: Tx, event: MoneyEvent): Promise<void> {
  await writeReceipt(tx, event);
  await applyToCreditValue(tx, event);
}
