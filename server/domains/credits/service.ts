/**
 * The credits ledger. Balances change only here: each change is one ledger row written in the
 * same transaction as users.credits, keyed by (source_type, source_id) so a repeat is a no-op
 * that returns the first result. Callers pass their own transaction to pay for something
 * atomically (a video task, a checkout).
 */
import { afterCommit } from '../../core/after-commit.ts';
import type { Db, DbOrTx } from '../../core/db.ts';
import type { UserCache } from '../../core/user-cache.ts';
import { recordCreditsLow } from '../../core/webhook-outbox.ts';
import {
  assertShallowOffset,
  boundedTotal,
  decodeCursor,
  keysetPage,
  totalCountLimit,
} from '../../core/cursor.ts';
import { AppError, conflict, notFound } from '../../core/errors.ts';
import type { CreditTransactionRow } from '../../db/schema.ts';
import type { CreditTransaction } from '../../contracts/credits.ts';
import * as repo from './repository.ts';
import { msg } from '../../core/api-messages.ts';
import { countFreeCredits } from './credit-value.ts';

// Issue 37: a user's value of a credit (what a video's revenue is priced at; credit-value.ts).
export {
  applyToCreditValue,
  countFreeCredits,
  readCreditValue,
  revenueOfChargeSql,
} from './credit-value.ts';

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

/**
 * The most credits a balance holds, and the largest single change: users.credits and the
 * ledger's amount and balance_after are 32-bit integers.
 */
const MAX_CREDITS = 2_147_483_647;

/** Raised when a grant would take the balance past MAX_CREDITS; nothing is written. */
class BalanceLimitError extends AppError {
  constructor(balance: number) {
    super(
      409,
      'BALANCE_LIMIT',
      msg('credits.balance_limit', {
        max: MAX_CREDITS.toLocaleString('en-US'),
        room: (MAX_CREDITS - balance).toLocaleString('en-US'),
      }),
    );
  }
}

/** Raised when a debit is larger than the balance; nothing is written. */
export class InsufficientCreditsError extends AppError {
  readonly balance: number;
  readonly required: number;
  constructor(balance: number, required: number) {
    super(402, 'INSUFFICIENT_CREDITS', msg('credits.not_enough', { needed: required, balance }));
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

/** A page of a user's ledger, newest first, and where the next one starts. */
export interface LedgerPage {
  transactions: CreditTransaction[];
  next_cursor: string | null;
  has_more: boolean;
}

/** An offset page also says how many rows there are (see boundedTotal in core/cursor.ts). */
export type LedgerOffsetPage = LedgerPage & { total: number; total_exact: boolean };

/** Rows fetched with `limit + 1` as a page: the extra row only says there is more. */
function ledgerPage(rows: repo.PagedTransactionRow[], limit: number): LedgerPage {
  const page = keysetPage(rows, limit, (row) => ({ ts: row.sortTs, id: row.id }));
  return {
    transactions: page.rows.map(toApiTransaction),
    next_cursor: page.next_cursor,
    has_more: page.has_more,
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
 * InsufficientCreditsError, a grant past MAX_CREDITS BalanceLimitError (the caller's
 * transaction rolls back); both are decided by the statement that changes the balance.
 */
export async function applyCreditChange(tx: DbOrTx, change: CreditChange): Promise<AppliedChange> {
  const { amount } = change;
  if (!Number.isInteger(amount) || amount === 0 || Math.abs(amount) > MAX_CREDITS) {
    throw new AppError(
      400,
      'INVALID_AMOUNT',
      msg('credits.invalid_amount', { max: MAX_CREDITS.toLocaleString('en-US') }),
    );
  }
  const first = await appliedBefore(tx, change);
  if (first && first.userId !== change.userId) {
    throw conflict(msg('credits.source_of_another_user'), 'SOURCE_OF_ANOTHER_USER');
  }
  if (first) return { transaction: first, duplicate: true };

  const balance = await repo.changeBalance(tx, change.userId, amount, MAX_CREDITS);
  if (balance === null) {
    const current = await repo.lockBalance(tx, change.userId);
    if (current === null) throw notFound(msg('credits.user_not_found'), 'USER_NOT_FOUND');
    if (amount > 0) throw new BalanceLimitError(current);
    throw new InsufficientCreditsError(current, -amount);
  }
  const transaction = await repo.insertTransaction(tx, {
    userId: change.userId,
    amount: change.amount,
    balanceAfter: balance,
    sourceType: change.sourceType,
    sourceId: change.sourceId,
    description: change.description,
  });
  countOnCommit(tx, transaction);
  // Issue 36: a debit that takes the balance under an endpoint's threshold tells its webhooks.
  if (amount < 0) await recordCreditsLow(tx, change.userId, balance - amount, balance);
  return { transaction, duplicate: false };
}

/**
 * The ledger source types the credit metrics name. Any other (a type an administrator chose on
 * /api/credits/add or /deduct) is counted as `other`: each label value is a series kept forever.
 */
const COUNTED_SOURCE_TYPES = new Set([
  'checkout',
  'stripe_invoice',
  'subscription_month',
  'local_renewal',
  'stripe_dispute_release',
  'stripe_dispute_hold',
  'stripe_refund',
  'video_task',
  'refund',
  'admin_adjustment',
]);

/**
 * Every ledger row is written here, so this is where credits granted and spent are counted:
 * once the caller's transaction commits (core/after-commit.ts), never for one rolled back.
 */
function countOnCommit(tx: DbOrTx, row: CreditTransactionRow): void {
  const type = COUNTED_SOURCE_TYPES.has(row.sourceType) ? row.sourceType : 'other';
  afterCommit(tx, (metrics) => {
    if (row.amount > 0) metrics.creditsGranted.inc({ source: type }, row.amount);
    else metrics.creditsSpent.inc({ reason: type }, -row.amount);
  });
}

/** An administrator's change, idempotent on the admin's own key (issue 16, finding 14). */
export interface AdminCreditChange extends Omit<CreditChange, 'sourceId'> {
  /** Who acts: the admin session's users.id, or the actor's name where there is no row (CLI). */
  admin: string;
  /** The admin's idempotency key: for one admin and one user, a key applies once. */
  key: string;
}

/**
 * The ledger source id of an admin's key, scoped to the acting admin and the target user: one
 * admin's key never answers for another admin or another user, and never names a source the
 * system writes (a task's refund, a payment), whose ids have no `admin:` prefix.
 */
const adminSourceId = (admin: string, userId: string, key: string) =>
  `admin:${encodeURIComponent(admin)}:${userId}:${key}`;

/**
 * Applies an admin's keyed change inside `tx`. Replaying the key with the same amount returns the
 * first result; with another amount or direction it is refused (409) and nothing changes.
 */
async function applyAdminCreditChange(
  tx: DbOrTx,
  change: AdminCreditChange,
): Promise<AppliedChange> {
  const { admin, key, ...rest } = change;
  const applied = await applyCreditChange(tx, {
    ...rest,
    sourceId: adminSourceId(admin, change.userId, key),
  });
  if (applied.duplicate && applied.transaction.amount !== change.amount) {
    throw conflict(
      msg('credits.key_reused', { amount: applied.transaction.amount }),
      'IDEMPOTENCY_KEY_REUSED',
    );
  }
  return applied;
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
  if (balance === null) throw notFound(msg('credits.user_not_found'), 'USER_NOT_FOUND');
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
    (await repo.listTransactions(db, userId, limit)).map(toApiTransaction);
  return {
    /** Applies one change in its own transaction. */
    apply(change: CreditChange): Promise<AppliedChange> {
      return db.transaction((tx) => applyCreditChange(tx, change));
    },

    /** Applies one change inside the caller's transaction (applyCreditChange). */
    applyIn: applyCreditChange,

    /**
     * Applies an admin's keyed change in its own transaction (applyAdminCreditChange). Nobody
     * paid for it: it counts as a free grant (or a taking back) in the value of a credit.
     */
    applyAdmin(change: AdminCreditChange): Promise<AppliedChange> {
      return db.transaction(async (tx) => {
        const applied = await applyAdminCreditChange(tx, change);
        if (!applied.duplicate) await countFreeCredits(tx, change.userId, change.amount);
        return applied;
      });
    },

    /** Applies an admin's keyed change inside the caller's transaction. */
    applyAdminIn: applyAdminCreditChange,

    /** The ledger row a source wrote, or null (e.g. what a video task was charged). */
    findChange: (tx: DbOrTx, sourceType: string, sourceId: string) =>
      repo.findBySource(tx, sourceType, sourceId),

    /** The newest `limit` ledger rows (the balance answer needs no total). */
    recentTransactions(userId: string, limit = 10) {
      if (!cache) return newest(userId, limit);
      return cache.perUser(`ledger:${limit}`, userId, () => newest(userId, limit));
    },

    /**
     * A shallow page of the ledger by offset (the pager's pages), with a bounded total: offsets
     * past MAX_OFFSET are refused with a pointer to `cursor`, since each skips rows one by one.
     */
    async latestTransactions(userId: string, limit = 10, offset = 0): Promise<LedgerOffsetPage> {
      assertShallowOffset(offset);
      const [rows, counted] = await Promise.all([
        repo.listTransactions(db, userId, limit + 1, { offset }),
        repo.countTransactions(db, userId, totalCountLimit(limit)),
      ]);
      const page = ledgerPage(rows, limit);
      return { ...page, ...boundedTotal(counted, limit) };
    },

    /** The page after a `next_cursor`, in constant time however deep (no total: see has_more). */
    async transactionsAfter(userId: string, cursor: string, limit = 10): Promise<LedgerPage> {
      const after = decodeCursor(cursor);
      return ledgerPage(await repo.listTransactions(db, userId, limit + 1, { after }), limit);
    },

    /** Whether the ledger sum equals the stored balance (the invariant). */
    async validate(userId: string) {
      const found = await repo.ledgerSumAndBalance(db, userId);
      if (!found) throw notFound(msg('credits.user_not_found'), 'USER_NOT_FOUND');
      return { userId, ...found, valid: found.balance === found.ledgerSum };
    },
  };
}

export type CreditsService = ReturnType<typeof createCreditsService>;

/** The ledger row a source wrote, or null (e.g. what a paid invoice granted, for its refund). */
export function findCreditChange(
  tx: DbOrTx,
  sourceType: string,
  sourceId: string,
): Promise<CreditTransactionRow | null> {
  return repo.findBySource(tx, sourceType, sourceId);
}

/**
 * Locks the user's balance row until the transaction ends and returns it: callers that must
 * check something else before paying (e.g. unfinished tasks) serialize per user with this.
 */
export async function lockUserCredits(tx: DbOrTx, userId: string): Promise<number | null> {
  return repo.lockBalance(tx, userId);
}
