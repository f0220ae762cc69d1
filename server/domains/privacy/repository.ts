/**
 * SQL for a customer's own data: what the export reads (their rows in every table that keeps
 * any) and what closing the account writes. Every function takes `db | tx` first.
 */
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../core/db.ts';
import {
  apiKeys,
  checkoutSessions,
  receiptEmails,
  creditTransactions,
  emailVerificationTokens,
  invoicePayments,
  passwordResetTokens,
  sessions,
  subscriptions,
  users,
  videoTasks,
  webhookEndpoints,
  type UserRow,
} from '../../db/schema.ts';

/** The address a closed account keeps: unique, and one no mail can reach (RFC 2606 .invalid). */
const tombstoneEmail = (userId: string) => `deleted-${userId}@deleted.invalid`;

/** The user row, locked until the transaction ends (closing waits for a submit in progress). */
export async function lockUser(tx: DbOrTx, userId: string): Promise<UserRow | null> {
  const [row] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
  return row ?? null;
}

/** Whether the session began less than `seconds` ago, by the database's clock. */
export async function isFreshSession(
  db: DbOrTx,
  sessionId: string,
  seconds: number,
): Promise<boolean> {
  const [row] = await queryRows<{ fresh: boolean }>(
    db,
    sql`select created_at > now() - make_interval(secs => ${seconds}::double precision) as fresh
        from sessions where id = ${sessionId}`,
  );
  return row?.fresh === true;
}

/** Tasks a worker may still be working on. */
export async function countUnfinishedTasks(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from video_tasks
        where user_id = ${userId} and status in ('pending', 'processing')`,
  );
  return row?.n ?? 0;
}

/**
 * Closes the account's row: every session and API key revoked, every webhook endpoint deleted,
 * every pending link (which may hold a chosen password and name) deleted, and the personal
 * fields replaced by a tombstone. The balance and the rows that point at the user id (ledger,
 * tasks, payments) stay as they are.
 */
export async function closeUser(tx: DbOrTx, userId: string): Promise<void> {
  await tx
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  // The public API (issue 36): its keys stop working and its webhooks stop with the sessions
  // (an endpoint's deliveries and attempts go with it).
  await tx
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
  await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.userId, userId));
  await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, userId));
  await tx.delete(emailVerificationTokens).where(eq(emailVerificationTokens.userId, userId));
  await tx
    .update(users)
    .set({
      email: tombstoneEmail(userId),
      name: null,
      picture: null,
      avatarUrl: null,
      passwordHash: null,
      googleSub: null,
      canManageBlog: false,
      updatedAt: sql`now()`,
    })
    .where(eq(users.id, userId));
}

export async function findUser(db: DbOrTx, userId: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  return row ?? null;
}

/** The user's ledger, oldest first (the order its balance_after column runs in). */
export function ledgerOf(db: DbOrTx, userId: string) {
  const t = creditTransactions;
  return db.select().from(t).where(eq(t.userId, userId)).orderBy(asc(t.createdAt), asc(t.id));
}

export function tasksOf(db: DbOrTx, userId: string) {
  const t = videoTasks;
  return db.select().from(t).where(eq(t.userId, userId)).orderBy(asc(t.createdAt), asc(t.id));
}

export function checkoutsOf(db: DbOrTx, userId: string) {
  const t = checkoutSessions;
  return db.select().from(t).where(eq(t.userId, userId)).orderBy(asc(t.createdAt), asc(t.id));
}

export function subscriptionsOf(db: DbOrTx, userId: string) {
  const t = subscriptions;
  return db.select().from(t).where(eq(t.userId, userId)).orderBy(asc(t.createdAt), asc(t.id));
}

export function invoicesOf(db: DbOrTx, userId: string) {
  const t = invoicePayments;
  return db
    .select()
    .from(t)
    .where(eq(t.userId, userId))
    .orderBy(asc(t.createdAt), asc(t.invoiceId));
}

/** The receipts mailed to the user (issue 37), oldest first. */
export function receiptsOf(db: DbOrTx, userId: string) {
  const t = receiptEmails;
  return db.select().from(t).where(eq(t.userId, userId)).orderBy(asc(t.createdAt), asc(t.id));
}

/** The user's API keys and webhook endpoints (issue 36), oldest first. */
export function apiKeysOf(db: DbOrTx, userId: string) {
  const t = apiKeys;
  return db.select().from(t).where(eq(t.userId, userId)).orderBy(asc(t.createdAt), asc(t.id));
}

export function webhookEndpointsOf(db: DbOrTx, userId: string) {
  const t = webhookEndpoints;
  return db.select().from(t).where(eq(t.userId, userId)).orderBy(asc(t.createdAt), asc(t.id));
}
