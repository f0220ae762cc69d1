/**
 * The receipts outbox's SQL (receipt_emails): claiming due receipts for a sender, writing what a
 * send led to, and a customer's own receipt. Times compared or written are the sender's clock,
 * passed as parameters, so tests move time by moving that clock.
 */
import { and, eq, sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../../core/db.ts';
import { receiptEmails, type ReceiptEmailRow } from '../../../db/schema.ts';
import { isLocale, type Locale } from '../../../../shared/locales.ts';
import type { ReceiptPayload } from './payload.ts';

const ts = (at: Date) => sql`${at.toISOString()}::timestamptz`;

/** A receipt a sender holds, with its customer's address. */
export interface ClaimedReceipt {
  id: string;
  receiptNumber: string;
  locale: Locale;
  payload: ReceiptPayload;
  /** This claim's attempt number: only the sender holding it may write its outcome. */
  attempt: number;
  email: string;
}

interface ClaimRow {
  id: string;
  receipt_number: string;
  locale: string;
  payload: ReceiptPayload | string;
  attempts: number;
  email: string;
}

/**
 * Holds up to `limit` due receipts until `heldUntil`: the claim moves their next attempt to then
 * and counts the attempt, so another sender skips them (SKIP LOCKED while this statement runs,
 * the later time after it), and one that dies holding them leaves them to whoever looks once the
 * hold has passed.
 */
export async function claimDue(
  db: DbOrTx,
  now: Date,
  heldUntil: Date,
  limit: number,
): Promise<ClaimedReceipt[]> {
  const rows = await queryRows<ClaimRow>(
    db,
    sql`with due as (
          select id from receipt_emails
          where status = 'pending' and next_attempt_at <= ${ts(now)}
          order by next_attempt_at
          limit ${limit}
          for update skip locked
        )
        update receipt_emails r
        set next_attempt_at = ${ts(heldUntil)}, attempts = r.attempts + 1
        from due, users u
        where r.id = due.id and u.id = r.user_id
        returning r.id, r.receipt_number, r.locale, r.payload, r.attempts, u.email`,
  );
  return rows.map((row) => ({
    id: row.id,
    receiptNumber: row.receipt_number,
    locale: isLocale(row.locale) ? row.locale : 'en',
    // PGlite and node-postgres both parse jsonb; a driver that does not hands over its text.
    payload:
      typeof row.payload === 'string' ? (JSON.parse(row.payload) as ReceiptPayload) : row.payload,
    attempt: row.attempts,
    email: row.email,
  }));
}

/**
 * Sent (`at`), or settled unsent (`at` null, with the reason): true when this claim still held it
 * (else another sender took it over).
 */
export async function markSent(
  db: DbOrTx,
  claim: Pick<ClaimedReceipt, 'id' | 'attempt'>,
  at: Date | null,
  unsentReason: string | null = null,
): Promise<boolean> {
  const rows = await db
    .update(receiptEmails)
    .set({ status: 'sent', sentAt: at, lastError: unsentReason })
    .where(
      and(
        eq(receiptEmails.id, claim.id),
        eq(receiptEmails.attempts, claim.attempt),
        eq(receiptEmails.status, 'pending'),
      ),
    )
    .returning({ id: receiptEmails.id });
  return rows.length > 0;
}

/** The send failed: tried again at `retryAt`, with the error kept for the operator. */
export async function markFailed(
  db: DbOrTx,
  claim: Pick<ClaimedReceipt, 'id' | 'attempt'>,
  retryAt: Date,
  error: string,
): Promise<void> {
  await db
    .update(receiptEmails)
    .set({ nextAttemptAt: retryAt, lastError: error.slice(0, 500) })
    .where(
      and(
        eq(receiptEmails.id, claim.id),
        eq(receiptEmails.attempts, claim.attempt),
        eq(receiptEmails.status, 'pending'),
      ),
    );
}

/** The user's receipt with this number; null when there is none or it is someone else's. */
export async function findUserReceipt(
  db: DbOrTx,
  userId: string,
  receiptNumber: string,
): Promise<ReceiptEmailRow | null> {
  const [row] = await db
    .select()
    .from(receiptEmails)
    .where(and(eq(receiptEmails.receiptNumber, receiptNumber), eq(receiptEmails.userId, userId)))
    .limit(1);
  return row ?? null;
}
