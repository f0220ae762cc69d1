/**
 * The admin's three changes: credits, blog rights and refunds. Each writes its effect and its
 * admin_actions row in one transaction, and names its actor (an admin username, or `cli:<os user>`
 * for the admin CLI, which runs these same functions against the database). Credits change only
 * through the credits service, inside that transaction.
 */
import { randomUUID } from 'node:crypto';
import type { Db, DbOrTx } from '../../core/db.ts';
import { AppError, conflict, notFound } from '../../core/errors.ts';
import type { AdminTask, AdminTransaction, AdminUser } from '../../contracts/admin.ts';
import {
  countFreeCredits,
  InsufficientCreditsError,
  toApiTransaction,
  type CreditsService,
} from '../credits/service.ts';
import * as repo from './repository.ts';
import { msg } from '../../core/api-messages.ts';

/** A customer by id, or 404 (admin rows count as missing). */
export async function customerOr404(db: DbOrTx, userId: string, lock = false): Promise<AdminUser> {
  const user = await repo.findUser(db, userId, { lock });
  if (!user) throw notFound(msg('admin.customer_not_found'), 'USER_NOT_FOUND');
  return user;
}

export function createAdminMutations(deps: {
  db: Db;
  credits: Pick<CreditsService, 'applyIn' | 'applyAdminIn' | 'findChange'>;
}) {
  const { db, credits } = deps;

  return {
    /**
     * Gives (amount > 0) or takes (amount < 0) credits with a reason: one ledger row
     * (`admin_adjustment`) and one audit row in one transaction. Never takes the balance below
     * zero. With an idempotency key, a replay by the same actor for the same user answers the
     * first result and writes nothing (the key is scoped to both).
     */
    async adjustCredits(
      actor: string,
      input: { userId: string; amount: number; reason: string; idempotencyKey?: string },
    ): Promise<{ user: AdminUser; transaction: AdminTransaction }> {
      const reason = input.reason.trim();
      if (reason.length < 3) {
        throw new AppError(400, 'REASON_REQUIRED', msg('admin.reason_required'));
      }
      return db.transaction(async (tx) => {
        await customerOr404(tx, input.userId);
        const change = {
          userId: input.userId,
          amount: input.amount,
          sourceType: 'admin_adjustment',
          description: reason,
        };
        const key = input.idempotencyKey;
        let applied;
        try {
          applied = key
            ? await credits.applyAdminIn(tx, { ...change, admin: actor, key })
            : await credits.applyIn(tx, { ...change, sourceId: randomUUID() });
        } catch (error) {
          if (error instanceof InsufficientCreditsError) {
            throw conflict(msg('admin.overdraft', { balance: error.balance }), 'WOULD_OVERDRAW');
          }
          throw error;
        }
        const transaction = toApiTransaction(applied.transaction);
        if (applied.duplicate) return { user: await customerOr404(tx, input.userId), transaction };
        // Nobody paid for an admin's credits: a free grant (or a taking back) for their value.
        await countFreeCredits(tx, input.userId, input.amount);
        await repo.insertAction(tx, {
          admin: actor,
          action: 'credits.adjust',
          targetUserId: input.userId,
          targetId: transaction.id,
          details: {
            amount: input.amount,
            reason,
            balance_after: transaction.balance_after,
            ...(key ? { idempotency_key: key } : {}),
          },
        });
        return { user: await customerOr404(tx, input.userId), transaction };
      });
    },

    /** Grants or revokes the blog-management right, audited with the previous value. */
    async setBlogAccess(
      actor: string,
      input: { userId: string; canManageBlog: boolean },
    ): Promise<{ user: AdminUser }> {
      return db.transaction(async (tx) => {
        const before = await customerOr404(tx, input.userId, true);
        const user = await repo.setCanManageBlog(tx, input.userId, input.canManageBlog);
        if (!user) throw notFound(msg('admin.customer_not_found'), 'USER_NOT_FOUND');
        await repo.insertAction(tx, {
          admin: actor,
          action: input.canManageBlog ? 'blog_access.grant' : 'blog_access.revoke',
          targetUserId: user.id,
          targetId: null,
          details: { can_manage_blog: input.canManageBlog, previous: before.can_manage_blog },
        });
        return { user };
      });
    },

    /**
     * Refunds a failed task that was not refunded. It writes the same ledger source the video
     * worker's failAndRefund writes (`refund:{taskId}`), which the ledger accepts once, so a task
     * can never be refunded twice, whoever tries first. The refund is what the task was charged.
     */
    async refundTask(
      actor: string,
      taskId: string,
    ): Promise<{ task: AdminTask; transaction: AdminTransaction }> {
      return db.transaction(async (tx) => {
        const task = await repo.lockTask(tx, taskId);
        if (!task) throw notFound(msg('admin.task_not_found'), 'TASK_NOT_FOUND');
        if (task.status !== 'failed') {
          throw conflict(
            msg('admin.task_not_refundable', { status: task.status }),
            'TASK_NOT_REFUNDABLE',
          );
        }
        const charge = await credits.findChange(tx, 'video_task', taskId);
        if (!charge || charge.amount >= 0) {
          throw conflict(msg('admin.task_not_charged'), 'NOT_CHARGED');
        }
        const applied = await credits.applyIn(tx, {
          userId: task.user_id,
          amount: -charge.amount,
          sourceType: 'refund',
          sourceId: taskId,
          description: 'Refund: failed video generation (by support)',
        });
        if (applied.duplicate) {
          throw conflict(msg('admin.task_already_refunded'), 'ALREADY_REFUNDED');
        }
        await repo.clearTaskRevenue(tx, taskId);
        const row = applied.transaction;
        await repo.insertAction(tx, {
          admin: actor,
          action: 'task.refund',
          targetUserId: task.user_id,
          targetId: taskId,
          details: { amount: row.amount, balance_after: row.balanceAfter },
        });
        return { task: (await repo.findTask(tx, taskId))!, transaction: toApiTransaction(row) };
      });
    },
  };
}
