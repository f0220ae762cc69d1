/**
 * Admin rules: the operator's sign-in (constant-time, locked after repeated failures, logged
 * without the password), the dashboard's read views, and the three mutations (credits, blog
 * rights, refunds). Each mutation writes its effect and its admin_actions row in one
 * transaction. The mutations are plain functions of `db` and an actor too, so the admin CLI
 * runs exactly the same rules against the database.
 */
import { randomUUID } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Db, DbOrTx } from '../../core/db.ts';
import { AppError, conflict, notFound } from '../../core/errors.ts';
import { verifyPassword } from '../../core/passwords.ts';
import { hashToken, newToken } from '../../core/tokens.ts';
import {
  ADMIN_CODES,
  ADMIN_MESSAGES,
  type AdminTask,
  type AdminTaskStatus,
  type AdminTransaction,
  type AdminUser,
} from '../../contracts/admin.ts';
import { InsufficientCreditsError, applyCreditChange } from '../credits/service.ts';
import { findBySource } from '../credits/repository.ts';
import { revokeSession } from '../accounts/repository.ts';
import { adminUserRow, sameUsername } from './identity.ts';
import * as repo from './repository.ts';

/** Admin sessions end 12 hours after sign-in, whatever SESSION_TTL_DAYS says. */
export const ADMIN_SESSION_MS = 12 * 60 * 60 * 1000;
/** Failures in a row (per username and per address) that lock the sign-in… */
export const LOCKOUT_FAILURES = 5;
/** …for this long. */
export const LOCKOUT_MS = 15 * 60 * 1000;

interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

// ─── Mutations (shared with the admin CLI) ─────────────────────────────────

async function customerOr404(db: DbOrTx, userId: string, lock = false): Promise<AdminUser> {
  const user = await repo.findUser(db, userId, { lock });
  if (!user) throw notFound('There is no customer account with that id.', 'USER_NOT_FOUND');
  return user;
}

/**
 * Gives (amount > 0) or takes (amount < 0) credits with a reason: one ledger row
 * (`admin_adjustment`) and one audit row in one transaction. Never takes the balance below zero.
 */
export async function adjustCredits(
  db: Db,
  actor: string,
  input: { userId: string; amount: number; reason: string },
): Promise<{ user: AdminUser; transaction: AdminTransaction }> {
  const reason = input.reason.trim();
  if (reason.length < 3) {
    throw new AppError(400, 'REASON_REQUIRED', 'Give a reason of at least 3 characters.');
  }
  return db.transaction(async (tx) => {
    await customerOr404(tx, input.userId);
    let applied;
    try {
      applied = await applyCreditChange(tx, {
        userId: input.userId,
        amount: input.amount,
        sourceType: 'admin_adjustment',
        sourceId: randomUUID(),
        description: reason,
      });
    } catch (error) {
      if (error instanceof InsufficientCreditsError) {
        throw conflict(ADMIN_MESSAGES.overdraft(error.balance), 'WOULD_OVERDRAW');
      }
      throw error;
    }
    const transaction = repo.toAdminTransaction({
      id: applied.transaction.id,
      amount: applied.transaction.amount,
      balance_after: applied.transaction.balanceAfter,
      source_type: applied.transaction.sourceType,
      source_id: applied.transaction.sourceId,
      description: applied.transaction.description,
      created_at: applied.transaction.createdAt,
    });
    await repo.insertAction(tx, {
      admin: actor,
      action: 'credits.adjust',
      targetUserId: input.userId,
      targetId: transaction.id,
      details: { amount: input.amount, reason, balance_after: transaction.balance_after },
    });
    return { user: await customerOr404(tx, input.userId), transaction };
  });
}

/** Grants or revokes the blog-management right, audited with the previous value. */
export async function setBlogAccess(
  db: Db,
  actor: string,
  input: { userId: string; canManageBlog: boolean },
): Promise<{ user: AdminUser }> {
  return db.transaction(async (tx) => {
    const before = await customerOr404(tx, input.userId, true);
    const user = await repo.setCanManageBlog(tx, input.userId, input.canManageBlog);
    if (!user) throw notFound('There is no customer account with that id.', 'USER_NOT_FOUND');
    await repo.insertAction(tx, {
      admin: actor,
      action: input.canManageBlog ? 'blog_access.grant' : 'blog_access.revoke',
      targetUserId: user.id,
      targetId: null,
      details: { can_manage_blog: input.canManageBlog, previous: before.can_manage_blog },
    });
    return { user };
  });
}

/**
 * Refunds a failed task that was not refunded. It writes the same ledger source the video
 * worker's failAndRefund writes (`refund:{taskId}`), which the ledger accepts once, so a task
 * can never be refunded twice, whoever tries first. The refund is what the task was charged.
 */
export async function refundTask(
  db: Db,
  actor: string,
  taskId: string,
): Promise<{ task: AdminTask; transaction: AdminTransaction }> {
  return db.transaction(async (tx) => {
    const task = await repo.lockTask(tx, taskId);
    if (!task) throw notFound('There is no video task with that id.', 'TASK_NOT_FOUND');
    if (task.status !== 'failed') {
      throw conflict(
        `Only a failed task can be refunded; this one is ${task.status}.`,
        'TASK_NOT_REFUNDABLE',
      );
    }
    const charge = await findBySource(tx, 'video_task', taskId);
    if (!charge || charge.amount >= 0) {
      throw conflict('This task was never charged, so there is nothing to refund.', 'NOT_CHARGED');
    }
    const applied = await applyCreditChange(tx, {
      userId: task.user_id,
      amount: -charge.amount,
      sourceType: 'refund',
      sourceId: taskId,
      description: 'Refund: failed video generation (by support)',
    });
    if (applied.duplicate) throw conflict('This task was already refunded.', 'ALREADY_REFUNDED');
    const row = applied.transaction;
    await repo.insertAction(tx, {
      admin: actor,
      action: 'task.refund',
      targetUserId: task.user_id,
      targetId: taskId,
      details: { amount: row.amount, balance_after: row.balanceAfter },
    });
    return {
      task: (await repo.findTask(tx, taskId))!,
      transaction: repo.toAdminTransaction({
        id: row.id,
        amount: row.amount,
        balance_after: row.balanceAfter,
        source_type: row.sourceType,
        source_id: row.sourceId,
        description: row.description,
        created_at: row.createdAt,
      }),
    };
  });
}

// ─── The service ───────────────────────────────────────────────────────────

export function createAdminService(deps: { db: Db; config: Config; now?: () => Date }) {
  const { db, config } = deps;
  const now = deps.now ?? (() => new Date());

  return {
    /**
     * The operator's sign-in. The same work happens whatever is wrong: the username comparison
     * is constant-time and the password's scrypt check always runs, so the answer time does
     * not tell whether the username exists. Failures count per username and per address.
     */
    async signIn(
      input: { username: string; password: string; ip: string },
      log: Logger,
    ): Promise<{ token: string; admin: { username: string }; expiresAt: string }> {
      const admin = config.admin;
      if (!admin) {
        throw new AppError(404, ADMIN_CODES.notConfigured, ADMIN_MESSAGES.notConfigured);
      }
      const at = now();
      const keys = [`user:${input.username}`, `ip:${input.ip}`];
      const lockedUntil = await repo.activeLock(db, keys, at);
      if (lockedUntil) {
        log.warn({ username: input.username, ip: input.ip }, 'admin sign-in refused: locked');
        const minutes = Math.max(1, Math.ceil((lockedUntil.getTime() - at.getTime()) / 60_000));
        throw new AppError(429, ADMIN_CODES.locked, ADMIN_MESSAGES.locked(minutes));
      }
      const usernameOk = sameUsername(input.username, admin.username);
      const passwordOk = await verifyPassword(input.password, admin.passwordHash);
      if (!usernameOk || !passwordOk) {
        await repo.recordFailure(db, keys, at, { max: LOCKOUT_FAILURES, windowMs: LOCKOUT_MS });
        log.warn({ username: input.username, ip: input.ip }, 'admin sign-in failed');
        throw new AppError(401, ADMIN_CODES.invalidCredentials, ADMIN_MESSAGES.invalidCredentials);
      }
      const token = newToken();
      const expiresAt = new Date(at.getTime() + ADMIN_SESSION_MS);
      await db.transaction(async (tx) => {
        await repo.clearFailures(tx, keys);
        const row = await adminUserRow(tx, admin.username);
        await repo.insertAdminSession(tx, {
          userId: row.id,
          tokenHash: hashToken(token),
          expiresAt,
        });
      });
      log.info({ username: admin.username, ip: input.ip }, 'admin sign-in succeeded');
      return { token, admin: { username: admin.username }, expiresAt: expiresAt.toISOString() };
    },

    /** `GET /api/admin/status`: ADMIN_STATUS_PASSWORD (or the admin password) in the query. */
    async checkStatusPassword(password: string | undefined): Promise<void> {
      if (!config.statusPasswordHash) {
        throw new AppError(404, ADMIN_CODES.notConfigured, ADMIN_MESSAGES.notConfigured);
      }
      const ok = await verifyPassword(password ?? '', config.statusPasswordHash);
      if (!ok || !password) {
        throw new AppError(
          401,
          'INVALID_STATUS_PASSWORD',
          'Add the status password: /api/admin/status?password=…',
        );
      }
    },

    async signOut(sessionId: string): Promise<void> {
      await revokeSession(db, sessionId);
    },

    async overviewCounts() {
      const since = new Date(now().getTime() - 24 * 60 * 60 * 1000);
      const [users, tasks, payments, webhooksLast24h] = await Promise.all([
        repo.customerCount(db),
        repo.taskCounts(db),
        repo.paymentTotals(db),
        repo.webhooksSince(db, since),
      ]);
      return { users, tasks, payments, webhooksLast24h };
    },

    users: (q: string, limit: number, offset: number) => repo.listUsers(db, q, limit, offset),

    async userDetail(userId: string) {
      const user = await customerOr404(db, userId);
      const [subscription, ledger, tasks] = await Promise.all([
        repo.latestSubscription(db, userId),
        repo.listTransactions(db, userId, 20, 0),
        repo.listTasks(db, { userId }, 20, 0),
      ]);
      return { user, subscription, transactions: ledger.transactions, tasks: tasks.tasks };
    },

    async transactions(userId: string, limit: number, offset: number) {
      await customerOr404(db, userId);
      return repo.listTransactions(db, userId, limit, offset);
    },

    tasks: (status: AdminTaskStatus | undefined, limit: number, offset: number) =>
      repo.listTasks(db, { status }, limit, offset),

    payments: (limit: number, offset: number) => repo.listPayments(db, limit, offset),

    webhooks: (limit: number, offset: number) => repo.listWebhooks(db, limit, offset),

    actions: (limit: number, offset: number) => repo.listActions(db, limit, offset),

    adjustCredits: (actor: string, input: { userId: string; amount: number; reason: string }) =>
      adjustCredits(db, actor, input),

    setBlogAccess: (actor: string, input: { userId: string; canManageBlog: boolean }) =>
      setBlogAccess(db, actor, input),

    refundTask: (actor: string, taskId: string) => refundTask(db, actor, taskId),
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
