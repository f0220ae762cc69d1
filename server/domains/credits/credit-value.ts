/**
 * A user's running value of a credit (issue 37, item 5; money-schema.ts userCreditValue): the USD
 * they paid (after discounts, in millionths) and the credits that money and every free grant gave
 * them. A video's revenue is its credits × paid ÷ credits granted at the moment of its charge: the
 * average price the customer paid per credit they were given. Written in the transaction of what
 * changes it (a money event, a free grant, a charge), so the figures move with the ledger.
 *
 * - A payment or renewal adds its amount and the credits it buys in all (a yearly plan: twelve
 *   months of credits, granted month by month, so the monthly grants add nothing more).
 * - A refund or a lost dispute takes back the amount and the credits it no longer buys; a won
 *   dispute changes nothing (the held credits come back, the money stays).
 * - A free grant (an administrator's) adds credits only, which lowers the value of every credit;
 *   an administrator taking credits back removes them from what was granted. A failed video's
 *   refund is no grant: it returns credits that were already counted.
 * - Only USD amounts count: there is no exchange rate here, so an event in another currency
 *   changes neither figure, and that customer's credits keep the value their USD purchases gave.
 * Neither figure goes below zero; with nothing granted a credit is worth nothing.
 */
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../core/db.ts';
import type { MoneyEvent } from '../../contracts/money-events.ts';

/** One cent in millionths of a dollar. */
const MICROS_PER_CENT = 10_000;
/** video_tasks.revenue_usd is numeric(12, 6). */
const MAX_REVENUE_USD = '999999.999999';

/** A signed change of a user's two figures. */
interface CreditValueChange {
  paidMicros: number;
  credits: number;
}

function count(value: number, what: string): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new Error(`credit value: ${what} must be a whole number ≥ 0, got ${value}`);
  }
  return value;
}

/** What a money event changes (null: nothing), by the rules above. */
function creditValueChange(event: MoneyEvent): CreditValueChange | null {
  if (event.currency.toLowerCase() !== 'usd') return null;
  const micros = count(event.amountCents, 'amountCents') * MICROS_PER_CENT;
  switch (event.kind) {
    case 'payment':
    case 'renewal':
      return { paidMicros: micros, credits: count(event.creditsBought, 'creditsBought') };
    case 'refund':
    case 'dispute_lost':
      return { paidMicros: -micros, credits: -count(event.creditsUnbought, 'creditsUnbought') };
    case 'dispute_won':
      return null;
  }
}

/** Adds a signed change to the user's row (made on first use), each figure floored at zero. */
async function addToCreditValue(
  tx: DbOrTx,
  userId: string,
  change: CreditValueChange,
): Promise<void> {
  if (change.paidMicros === 0 && change.credits === 0) return;
  const paid = sql`${change.paidMicros}::bigint`;
  const credits = sql`${change.credits}::bigint`;
  await tx.execute(sql`
    insert into user_credit_value (user_id, paid_micros, credits_granted, updated_at)
    values (${userId}, greatest(${paid}, 0), greatest(${credits}, 0), now())
    on conflict (user_id) do update set
      paid_micros = greatest(user_credit_value.paid_micros + ${paid}, 0),
      credits_granted = greatest(user_credit_value.credits_granted + ${credits}, 0),
      updated_at = now()`);
}

/**
 * Applies a money event to the user's value of a credit, inside `tx`, the transaction that applies
 * the event (billing's recordMoneyEvent), so a replayed event that billing skips counts once.
 */
export async function applyToCreditValue(tx: DbOrTx, event: MoneyEvent): Promise<void> {
  const change = creditValueChange(event);
  if (change) await addToCreditValue(tx, event.userId, change);
}

/**
 * Counts credits given without payment (amount > 0) or an administrator's taking back
 * (amount < 0) in the value of a credit, inside the transaction of their ledger row.
 */
export async function countFreeCredits(tx: DbOrTx, userId: string, amount: number): Promise<void> {
  if (!Number.isSafeInteger(amount)) throw new Error(`credit value: bad amount ${amount}`);
  await addToCreditValue(tx, userId, { paidMicros: 0, credits: amount });
}

/**
 * The revenue of `credits` charged to `userId` now, in USD as an SQL expression (numeric, to the
 * millionth): for the charge's own statement (video_tasks.revenue_usd), read in its transaction
 * after the user's row is locked, so no purchase lands between the value read and the debit.
 */
export function revenueOfChargeSql(userId: string, credits: number): SQL {
  count(credits, 'credits');
  return sql`(select least(coalesce(
      (select round(${credits}::numeric * v.paid_micros / nullif(v.credits_granted, 0))
         from user_credit_value v where v.user_id = ${userId}), 0) / 1000000,
      ${MAX_REVENUE_USD}::numeric))`;
}

/** The user's two figures (zeros when nothing was ever counted). */
export async function readCreditValue(
  db: DbOrTx,
  userId: string,
): Promise<{ paidMicros: number; creditsGranted: number }> {
  const [row] = await queryRows<{ paid_micros: string | number; credits_granted: string | number }>(
    db,
    sql`select paid_micros, credits_granted from user_credit_value where user_id = ${userId}`,
  );
  return {
    paidMicros: Number(row?.paid_micros ?? 0),
    creditsGranted: Number(row?.credits_granted ?? 0),
  };
}
