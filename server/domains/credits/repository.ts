/** SQL for the credits ledger. Every function takes `db | tx` first. */
import { and, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import { cursorTimestampSql, keysetBefore, type CursorKey } from '../../core/cursor.ts';
import { queryRows, type DbOrTx } from '../../core/db.ts';
import { creditTransactions, users, type CreditTransactionRow } from '../../db/schema.ts';

export async function findBySource(
  db: DbOrTx,
  sourceType: string,
  sourceId: string,
): Promise<CreditTransactionRow | null> {
  const [row] = await db
    .select()
    .from(creditTransactions)
    .where(
      and(eq(creditTransactions.sourceType, sourceType), eq(creditTransactions.sourceId, sourceId)),
    )
    .limit(1);
  return row ?? null;
}

/** Serializes every change that names the same source, across users and processes, until commit. */
export async function lockSource(tx: DbOrTx, sourceType: string, sourceId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${sourceType}:${sourceId}`}))`);
}

/**
 * Adds `amount` credits, or takes them when it is negative: one statement that only succeeds when
 * the balance covers a debit (never below zero) and holds a grant (never above `max`). Returns
 * the new balance, or null when the user does not exist or the balance is too small or too large.
 */
export async function changeBalance(
  tx: DbOrTx,
  userId: string,
  amount: number,
  max: number,
): Promise<number | null> {
  const [row] = await tx
    .update(users)
    .set({ credits: sql`${users.credits} + ${amount}`, updatedAt: sql`now()` })
    .where(
      and(
        eq(users.id, userId),
        amount < 0 ? sql`${users.credits} >= ${-amount}` : sql`${users.credits} <= ${max - amount}`,
      ),
    )
    .returning({ credits: users.credits });
  return row?.credits ?? null;
}

/** The balance, locking the user's row for the rest of the transaction. */
export async function lockBalance(tx: DbOrTx, userId: string): Promise<number | null> {
  const rows = await queryRows<{ credits: number }>(
    tx,
    sql`select credits from users where id = ${userId} for update`,
  );
  return rows[0]?.credits ?? null;
}

export async function insertTransaction(
  tx: DbOrTx,
  row: typeof creditTransactions.$inferInsert,
): Promise<CreditTransactionRow> {
  // The time of the insert, not of the transaction's start (now()): the row is written after the
  // user's balance row is locked, so in created_at order a user's rows chain balance_after as
  // they were applied. A transaction that began earlier but waited for that lock comes later.
  const [inserted] = await tx
    .insert(creditTransactions)
    .values({ ...row, createdAt: sql`clock_timestamp()` })
    .returning();
  return inserted!;
}

/** A ledger row with its sort key as text (microseconds, for the next page's cursor). */
export type PagedTransactionRow = CreditTransactionRow & { sortTs: string };

/**
 * A user's ledger rows, newest first by (created_at, id), `limit` of them: after `after` (a
 * cursor's key; constant time) or from `offset` (shallow pages only). Both are served by
 * credit_transactions_user_created_id_idx (user_id, created_at, id), scanned backward: no sort.
 */
export function transactionsQuery(
  db: DbOrTx,
  userId: string,
  limit: number,
  from: { offset?: number; after?: CursorKey } = {},
) {
  const t = creditTransactions;
  return db
    .select({ ...getTableColumns(t), sortTs: cursorTimestampSql(t.createdAt) })
    .from(t)
    .where(and(eq(t.userId, userId), from.after && keysetBefore(t.createdAt, t.id, from.after)))
    .orderBy(desc(t.createdAt), desc(t.id))
    .limit(limit)
    .offset(from.offset ?? 0);
}

export async function listTransactions(
  db: DbOrTx,
  userId: string,
  limit: number,
  from: { offset?: number; after?: CursorKey } = {},
): Promise<PagedTransactionRow[]> {
  return transactionsQuery(db, userId, limit, from);
}

/** Counts a user's ledger rows, no further than `upTo`: an index-only range scan, then a stop. */
export const countTransactionsSql = (userId: string, upTo: number) =>
  sql`select count(*)::int as n
      from (select 1 from credit_transactions where user_id = ${userId} limit ${upTo}) t`;

/** How many ledger rows the user has, counting no further than `upTo`. */
export async function countTransactions(db: DbOrTx, userId: string, upTo: number): Promise<number> {
  const rows = await queryRows<{ n: number }>(db, countTransactionsSql(userId, upTo));
  return rows[0]?.n ?? 0;
}

/** The ledger sum and the stored balance of one user (the invariant: they are equal). */
export async function ledgerSumAndBalance(
  db: DbOrTx,
  userId: string,
): Promise<{ balance: number; ledgerSum: number } | null> {
  const rows = await queryRows<{ balance: number; ledger_sum: number }>(
    db,
    sql`select u.credits as balance,
               coalesce((select sum(amount) from credit_transactions t where t.user_id = u.id), 0)::int as ledger_sum
        from users u where u.id = ${userId}`,
  );
  const row = rows[0];
  return row ? { balance: row.balance, ledgerSum: row.ledger_sum } : null;
}
