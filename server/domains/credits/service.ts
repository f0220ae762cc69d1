/**
 * The credits ledger. Balances change only here: each change is one ledger row written in the
 * same transaction as users.credits, keyed by (source_type, source_id) so a repeat is a no-op
 * that returns the first result. Callers pass their own transaction to pay for something
 * atomically (a video task, a checkout).
 */
import type { Db, DbOrTx } from '../../core/db.ts';
import type { UserCache } from '../../core/user-cache.ts';
import { AppError, notFound } from '../../core/errors.ts';
import type { CreditTransactionRow } from '../../db/schema.ts';
import type { CreditTransaction } from '../../contracts/credits.ts';
import * as repo from './repository.ts';

export interface CreditChange {
  userId: string;
  /** Positive: credits granted; negative: credits spent or taken back. Never zero. */
  amount: number;
  sourceType: string;
  sourceId: string;
  description: string;
}

export interface AppliedChange {
  transaction: CreditTransactionRow;
  /** True when this source was already applied: nothing changed, the first result is returned. */
  duplicate: boolean;
}

/** Raised when a debit is larger than the balance; nothing is written. */
export class InsufficientCreditsError extends AppError {
  readonly balance: number;
  readonly required: number;
  constructor(balance: number, required: number) {
    super(
      402,
      'INSUFFICIENT_CREDITS',
      `Not enough credits: this needs ${required} and the balance is ${balance}.`,
    );
    this.balance = balance;
    this.required = required;
  }
}

/** The one place ledger rows become API objects. */
export function toApiTransaction(row: CreditTransactionRow): CreditTransaction {
  return {
    id: row.id,
    amount: row.amount,
    balance_after: row.balanceAfter,
    source_type: row.sourceType,
    source_id: row.sourceId,
    description: row.description,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * The row this change's source already wrote, or null. A miss takes the source's lock and looks
 * again: another transaction may have applied the same source while we waited for it.
 */
async function appliedBefore(
  tx: DbOrTx,
  source: Pick<CreditChange, 'sourceType' | 'sourceId'>,
): Promise<CreditTransactionRow | null> {
  const first = await repo.findBySource(tx, source.sourceType, source.sourceId);
  if (first) return first;
  await repo.lockSource(tx, source.sourceType, source.sourceId);
  return repo.findBySource(tx, source.sourceType, source.sourceId);
}

/**
 * Applies one change inside `tx`. A debit larger than the balance throws
 * InsufficientCreditsError (the caller's transaction rolls back).
 */
export async function applyCreditChange(tx: DbOrTx, change: CreditChange): Promise<AppliedChange> {
  if (!Number.isInteger(change.amount) || change.amount === 0) {
    throw new AppError(400, 'INVALID_AMOUNT', 'The amount must be a whole number other than zero.');
  }
  const first = await appliedBefore(tx, change);
  if (first) return { transaction: first, duplicate: true };

  const balance = await repo.changeBalance(tx, change.userId, change.amount);
  if (balance === null) {
    const current = await repo.lockBalance(tx, change.userId);
    if (current === null) throw notFound('That user does not exist.', 'USER_NOT_FOUND');
    throw new InsufficientCreditsError(current, -change.amount);
  }
  const transaction = await repo.insertTransaction(tx, {
    userId: change.userId,
    amount: change.amount,
    balanceAfter: balance,
    sourceType: change.sourceType,
    sourceId: change.sourceId,
    description: change.description,
  });
  return { transaction, duplicate: false };
}

/**
 * Takes back up to `amount` credits without going below zero (refunded purchases whose credits
 * were partly spent). Returns what was taken; a repeat of the same source takes nothing more.
 */
export async function takeBackCredits(
  tx: DbOrTx,
  change: Omit<CreditChange, 'amount'> & { amount: number },
): Promise<{ taken: number; duplicate: boolean }> {
  const first = await appliedBefore(tx, change);
  if (first) return { taken: -first.amount, duplicate: true };
  const balance = await repo.lockBalance(tx, change.userId);
  if (balance === null) throw notFound('That user does not exist.', 'USER_NOT_FOUND');
  const taken = Math.min(balance, change.amount);
  if (taken === 0) return { taken: 0, duplicate: false };
  await applyCreditChange(tx, { ...change, amount: -taken });
  return { taken, duplicate: false };
}

/**
 * `cache` (optional) keeps each user's newest ledger rows in memory; the database drops them
 * whenever that user's ledger changes, in any process (core/user-cache.ts).
 */
export function createCreditsService(db: Db, cache?: Pick<UserCache<unknown>, 'perUser'>) {
  const newest = async (userId: string, limit: number) =>
    (await repo.listTransactions(db, userId, limit, 0)).map(toApiTransaction);
  return {
    /** Applies one change in its own transaction. */
    apply(change: CreditChange): Promise<AppliedChange> {
      return db.transaction((tx) => applyCreditChange(tx, change));
    },

    /** Applies one change inside the caller's transaction (applyCreditChange). */
    applyIn: applyCreditChange,

    /** The ledger row a source wrote, or null (e.g. what a video task was charged). */
    findChange: (tx: DbOrTx, sourceType: string, sourceId: string) =>
      repo.findBySource(tx, sourceType, sourceId),

    /** The newest `limit` ledger rows (the balance answer needs no total). */
    recentTransactions(userId: string, limit = 10) {
      if (!cache) return newest(userId, limit);
      return cache.perUser(`ledger:${limit}`, userId, () => newest(userId, limit));
    },

    async latestTransactions(userId: string, limit = 10, offset = 0) {
      const [rows, total] = await Promise.all([
        repo.listTransactions(db, userId, limit, offset),
        repo.countTransactions(db, userId),
      ]);
      return { transactions: rows.map(toApiTransaction), total };
    },

    /** Whether the ledger sum equals the stored balance (the invariant). */
    async validate(userId: string) {
      const found = await repo.ledgerSumAndBalance(db, userId);
      if (!found) throw notFound('That user does not exist.', 'USER_NOT_FOUND');
      return { userId, ...found, valid: found.balance === found.ledgerSum };
    },
  };
}

export type CreditsService = ReturnType<typeof createCreditsService>;

/**
 * Locks the user's balance row until the transaction ends and returns it: callers that must
 * check something else before paying (e.g. unfinished tasks) serialize per user with this.
 */
export async function lockUserCredits(tx: DbOrTx, userId: string): Promise<number | null> {
  return repo.lockBalance(tx, userId);
}
