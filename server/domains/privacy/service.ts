/**
 * A customer's rights over their data (issue 34, finding 10; GDPR articles 17 and 20, CCPA):
 * a copy of everything we keep about them, and closing the account. Closing cancels the
 * subscription at the payment provider now, deletes every video and upload from the media store,
 * revokes every session and replaces the personal fields with a tombstone. The ledger and the
 * payment records stay under the bare user id, for accounting; the balance is not touched, so
 * the ledger still adds up to it.
 */
import { DEFAULT_OPTIONS, toOptionsData } from '../../../shared/video-options.ts';
import type { Db, DbOrTx } from '../../core/db.ts';
import { AppError, badRequest, conflict, forbidden } from '../../core/errors.ts';
import type { MediaStore } from '../../core/media-store/types.ts';
import { verifyPassword } from '../../core/passwords.ts';
import type { UserRow } from '../../db/schema.ts';
import type { AccountExport } from '../../contracts/account.ts';
import { FRESH_SIGN_IN_MINUTES } from '../../../shared/account.ts';
import type { BillingService } from '../billing/service.ts';
import { deleteUserVideos } from '../video/service.ts';
import { answerText, msg } from '../../core/api-messages.ts';
import * as repo from './repository.ts';
import { toApiTransaction } from '../credits/service.ts';

interface Logger {
  info(obj: object, msg?: string): void;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function createPrivacyService(deps: {
  db: Db;
  store: MediaStore;
  billing: Pick<BillingService, 'cancelSubscription'>;
  log: Logger;
}) {
  const { db, store, billing, log } = deps;

  /**
   * The person at the keyboard is the account's owner: the password of an account that has one,
   * otherwise a sign-in of the last few minutes (a stolen, long-lived session token alone cannot
   * close an account).
   */
  async function confirmOwner(user: UserRow, sessionId: string, password: string | undefined) {
    if (user.passwordHash) {
      if (!password) throw badRequest(msg('account.password_required'), 'PASSWORD_REQUIRED');
      if (!(await verifyPassword(password, user.passwordHash))) {
        throw forbidden(msg('account.password_wrong'), 'PASSWORD_WRONG');
      }
      return;
    }
    if (!(await repo.isFreshSession(db, sessionId, FRESH_SIGN_IN_MINUTES * 60))) {
      throw forbidden(
        msg('account.reauth_required', { minutes: FRESH_SIGN_IN_MINUTES }),
        'SIGN_IN_AGAIN',
      );
    }
  }

  /** A video still being made would be written to the store after its account is gone. */
  async function refuseUnfinished(conn: DbOrTx, userId: string) {
    const count = await repo.countUnfinishedTasks(conn, userId);
    if (count > 0) throw conflict(msg('account.tasks_unfinished', { count }), 'TASKS_UNFINISHED');
  }

  /** Cancels the active subscription now, at the provider and here; none is fine. */
  async function cancelSubscription(userId: string) {
    try {
      await billing.cancelSubscription(userId);
    } catch (error) {
      if (error instanceof AppError && error.code === 'NO_SUBSCRIPTION') return;
      throw error;
    }
  }

  return {
    /**
     * DELETE /api/account. The steps outside the database come first and are each safe to
     * repeat, so a failure (the payment provider down) leaves an open account to close again,
     * never a closed one still billed.
     */
    async closeAccount(
      user: UserRow,
      session: { id: string; isAdmin: boolean },
      input: { password?: string | undefined },
    ) {
      if (session.isAdmin || user.provider === 'admin') {
        throw forbidden(msg('account.admin_session'), 'ADMIN_SESSION');
      }
      await confirmOwner(user, session.id, input.password);
      await refuseUnfinished(db, user.id);
      await cancelSubscription(user.id);
      const videos = await deleteUserVideos(db, store, user.id);
      await db.transaction(async (tx) => {
        // Under the row lock a submit takes too: no task can start in between.
        await repo.lockUser(tx, user.id);
        await refuseUnfinished(tx, user.id);
        await repo.closeUser(tx, user.id);
      });
      log.info({ userId: user.id, videos }, 'account closed at its owner’s request');
      return { message: answerText('account.closed') };
    },

    /** GET /api/account/export: every row we keep about the user, oldest first. */
    async exportData(userId: string): Promise<AccountExport> {
      const [user, ledger, tasks, checkouts, subscriptions, invoices, keys, endpoints, receipts] =
        await Promise.all([
          repo.findUser(db, userId),
          repo.ledgerOf(db, userId),
          repo.tasksOf(db, userId),
          repo.checkoutsOf(db, userId),
          repo.subscriptionsOf(db, userId),
          repo.invoicesOf(db, userId),
          repo.apiKeysOf(db, userId),
          repo.webhookEndpointsOf(db, userId),
          repo.receiptsOf(db, userId),
        ]);
      if (!user) throw new Error(`user ${userId} vanished during its export`);
      return {
        exported_at: new Date().toISOString(),
        profile: {
          id: user.id,
          email: user.email,
          name: user.name,
          picture: user.picture,
          avatar_url: user.avatarUrl,
          provider: user.provider,
          google_linked: user.googleSub !== null,
          credits: user.credits,
          email_verified_at: iso(user.emailVerifiedAt),
          created_at: user.createdAt.toISOString(),
          updated_at: user.updatedAt.toISOString(),
        },
        ledger: ledger.map(toApiTransaction),
        tasks: tasks.map((row) => ({
          id: row.id,
          status: row.status,
          model: row.model,
          mode: row.mode,
          prompt: row.prompt,
          result_url: row.resultUrl,
          poster_url: row.posterUrl,
          credits_charged: row.creditsCharged,
          options: toOptionsData(row.options ?? DEFAULT_OPTIONS),
          source_task_id: row.sourceTaskId,
          error_message: row.errorMessage,
          api_key_id: row.apiKeyId,
          metadata: row.metadata,
          created_at: row.createdAt.toISOString(),
          completed_at: iso(row.completedAt),
          deleted_at: iso(row.deletedAt),
        })),
        api: {
          keys: keys.map((row) => ({
            id: row.id,
            name: row.name,
            prefix: row.prefix,
            scopes: row.scopes,
            created_at: row.createdAt.toISOString(),
            last_used_at: iso(row.lastUsedAt),
            revoked_at: iso(row.revokedAt),
          })),
          webhook_endpoints: endpoints.map((row) => ({
            id: row.id,
            url: row.url,
            events: row.events,
            credits_low_threshold: row.creditsLowThreshold,
            created_at: row.createdAt.toISOString(),
            disabled_at: iso(row.disabledAt),
          })),
        },
        payments: {
          checkouts: checkouts.map((row) => ({
            id: row.id,
            provider: row.provider,
            kind: row.kind,
            item_id: row.itemId,
            billing_cycle: row.billingCycle,
            amount_cents: row.amountCents,
            currency: row.currency,
            credits: row.credits,
            status: row.status,
            credits_refunded: row.creditsRefunded,
            discount_cents: row.discountCents,
            locale: row.locale,
            created_at: row.createdAt.toISOString(),
            completed_at: iso(row.completedAt),
          })),
          subscriptions: subscriptions.map((row) => ({
            id: row.id,
            provider: row.provider,
            plan_id: row.planId,
            billing_cycle: row.billingCycle,
            status: row.status,
            current_period_start: row.currentPeriodStart.toISOString(),
            current_period_end: row.currentPeriodEnd.toISOString(),
            cancel_at_period_end: row.cancelAtPeriodEnd,
            canceled_at: iso(row.canceledAt),
            created_at: row.createdAt.toISOString(),
          })),
          invoices: invoices.map((row) => ({
            invoice_id: row.invoiceId,
            subscription_id: row.subscriptionId,
            amount_cents: row.amountCents,
            period_start: row.periodStart.toISOString(),
            credits_granted: row.creditsGranted,
            refunded_cents: row.refundedCents,
            created_at: row.createdAt.toISOString(),
          })),
          receipts: receipts.map((row) => ({
            receipt_number: row.receiptNumber,
            kind: row.kind,
            locale: row.locale,
            status: row.status,
            payload: row.payload,
            created_at: row.createdAt.toISOString(),
            sent_at: iso(row.sentAt),
          })),
        },
      };
    },
  };
}

export type PrivacyService = ReturnType<typeof createPrivacyService>;
