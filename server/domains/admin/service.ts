/**
 * Admin rules: the operator's sign-in (constant-time, locked after repeated failures, logged
 * without the password), the dashboard's read views, and the three changes (admin/mutations.ts,
 * which the admin CLI runs too). Other domains are reached through their services only: the
 * credits service for the ledger, the accounts service for the operator's row and sessions.
 */
import type { Config } from '../../config.ts';
import { cachedReading } from '../../core/cached-reading.ts';
import type { Db } from '../../core/db.ts';
import { AppError } from '../../core/errors.ts';
import { verifyPassword } from '../../core/passwords.ts';
import { hashToken, newToken } from '../../core/tokens.ts';
import type { AdminTaskStatus } from '../../contracts/admin.ts';
import { ADMIN_CODES, USER_SEARCH_MIN_LENGTH } from '../../../shared/admin.ts';
import type { AccountsService } from '../accounts/service.ts';
import type { CreditsService } from '../credits/service.ts';
import { createDailyStatsReader } from './daily-stats.ts';
import { EMAIL_STATS_TTL_MS, planEmailSearch, readEmailTrigramStats } from './email-search.ts';
import { adminUserRow, sameUsername } from './identity.ts';
import {
  ADDRESS_LOCKOUT_FAILURES,
  LOCKOUT_MS,
  signInKeys,
  statusKeys,
  type LockoutKey,
} from './lockout-policy.ts';
import * as lockout from './lockout-repository.ts';
import { createAdminMutations, customerOr404 } from './mutations.ts';
import { createOverviewReader } from './overview.ts';
import { pageStart, type PageRequest } from './paging.ts';
import * as lists from './list-repository.ts';
import * as repo from './repository.ts';
import { msg } from '../../core/api-messages.ts';

/** Admin sessions end 12 hours after sign-in, whatever SESSION_TTL_DAYS says. */
const ADMIN_SESSION_MS = 12 * 60 * 60 * 1000;
export { LOCKOUT_MS } from './lockout-policy.ts';
/** For the api domain's admin routes (an API key revoked by support is written to the audit log). */
export { adminName } from './identity.ts';
/** Failures in a row from one address that lock that address (lockout-policy.ts). */
export const LOCKOUT_FAILURES = ADDRESS_LOCKOUT_FAILURES;

interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export function createAdminService(deps: {
  db: Db;
  config: Config;
  credits: CreditsService;
  accounts: Pick<AccountsService, 'findOrCreateUser' | 'openAdminSession' | 'signOut'>;
  now?: () => Date;
}) {
  const { db, config, credits, accounts } = deps;
  const now = deps.now ?? (() => new Date());
  const mutations = createAdminMutations({ db, credits });
  const dailyStats = createDailyStatsReader({ db, now });
  const overviewCounts = createOverviewReader({ db, now });
  // The email search's trigram frequencies (email-search.ts), read once per EMAIL_STATS_TTL_MS.
  const emailTrigramStats = cachedReading(() => readEmailTrigramStats(db), {
    ttlMs: EMAIL_STATS_TTL_MS,
    now,
  });

  /** 429 with the minutes left while any of `keys` is locked; `onLocked` runs first. */
  async function refuseWhileLocked(keys: LockoutKey[], at: Date, onLocked?: () => void) {
    const lockedUntil = await lockout.activeLock(
      db,
      keys.map((k) => k.key),
      at,
    );
    if (!lockedUntil) return;
    onLocked?.();
    const minutes = Math.max(1, Math.ceil((lockedUntil.getTime() - at.getTime()) / 60_000));
    throw new AppError(429, ADMIN_CODES.locked, msg('admin.locked', { minutes }));
  }

  return {
    /**
     * The operator's sign-in. The same work happens whatever is wrong: the username comparison
     * is constant-time and the password's scrypt check always runs, so the answer time does
     * not tell whether the username exists. Failures count per address and per username
     * (lockout-policy.ts).
     */
    async signIn(
      input: { username: string; password: string; ip: string },
      log: Logger,
    ): Promise<{ token: string; admin: { username: string }; expiresAt: string }> {
      const admin = config.admin;
      if (!admin) {
        throw new AppError(404, ADMIN_CODES.notConfigured, msg('admin.not_configured'));
      }
      const at = now();
      const keys = signInKeys(input.username, input.ip);
      await refuseWhileLocked(keys, at, () =>
        log.warn({ username: input.username, ip: input.ip }, 'admin sign-in refused: locked'),
      );
      const usernameOk = sameUsername(input.username, admin.username);
      const passwordOk = await verifyPassword(input.password, admin.passwordHash);
      if (!usernameOk || !passwordOk) {
        await lockout.recordFailure(db, keys, at, { windowMs: LOCKOUT_MS });
        log.warn({ username: input.username, ip: input.ip }, 'admin sign-in failed');
        throw new AppError(401, ADMIN_CODES.invalidCredentials, msg('admin.invalid_credentials'));
      }
      const token = newToken();
      const expiresAt = new Date(at.getTime() + ADMIN_SESSION_MS);
      await db.transaction(async (tx) => {
        // The address's run ends; the username's does not, or one success would reset the
        // ceiling on a run spread over many addresses.
        await lockout.clearFailures(tx, [keys[0]!.key]);
        const row = await adminUserRow(accounts, tx, admin.username);
        await accounts.openAdminSession(tx, {
          userId: row.id,
          tokenHash: hashToken(token),
          expiresAt,
        });
      });
      log.info({ username: admin.username, ip: input.ip }, 'admin sign-in succeeded');
      return { token, admin: { username: admin.username }, expiresAt: expiresAt.toISOString() };
    },

    /**
     * `GET /api/admin/status`: ADMIN_STATUS_PASSWORD (or the admin password) in the query. It is
     * a password check like the sign-in, so it counts failures and honours the same locks: a
     * locked address gets the same answer whether the password is right or wrong.
     */
    async checkStatusPassword(password: string | undefined, ip: string): Promise<void> {
      const hash = config.statusPasswordHash;
      if (!hash) throw new AppError(404, ADMIN_CODES.notConfigured, msg('admin.not_configured'));
      const at = now();
      const sharesAdminPassword = config.admin !== null && hash === config.admin.passwordHash;
      const keys = statusKeys(ip, sharesAdminPassword ? config.admin!.username : null);
      await refuseWhileLocked(keys, at);
      const ok = await verifyPassword(password ?? '', hash);
      if (!ok || !password) {
        await lockout.recordFailure(db, keys, at, { windowMs: LOCKOUT_MS });
        throw new AppError(401, 'INVALID_STATUS_PASSWORD', msg('admin.status_password_required'));
      }
    },

    signOut: (sessionId: string) => accounts.signOut(sessionId),

    /** The overview's counts (overview.ts; cached 30 s, `fresh` reads now). */
    overviewCounts,

    /** The overview's charts: the last `days` UTC days (daily-stats.ts; cached a minute). */
    dailyStats,

    /**
     * Customers newest first; `q` finds a part of the email. The search is a trigram index
     * search, so a text shorter than 3 characters (no trigram: every row would be read) is
     * refused with what to type instead.
     */
    async users(q: string, page: PageRequest) {
      const search = q.trim().toLowerCase();
      if (search && search.length < USER_SEARCH_MIN_LENGTH) {
        throw new AppError(
          400,
          'SEARCH_TOO_SHORT',
          msg('admin.search_too_short', { min: USER_SEARCH_MIN_LENGTH }),
        );
      }
      const start = pageStart(page);
      const stats = search ? await emailTrigramStats().catch(() => null) : null;
      return lists.listUsers(db, search, planEmailSearch(search, stats), start);
    },

    async userDetail(userId: string) {
      const user = await customerOr404(db, userId);
      const [subscription, ledger, tasks] = await Promise.all([
        repo.latestSubscription(db, userId),
        credits.latestTransactions(userId, 20, 0),
        lists.listTasks(db, { userId }, { limit: 20, offset: 0, after: null }),
      ]);
      return { user, subscription, transactions: ledger.transactions, tasks: tasks.tasks };
    },

    /** A customer's ledger: a shallow offset page with its total, or the page after a cursor. */
    async transactions(userId: string, page: PageRequest) {
      const start = pageStart(page);
      await customerOr404(db, userId);
      return page.cursor === undefined
        ? credits.latestTransactions(userId, start.limit, start.offset)
        : credits.transactionsAfter(userId, page.cursor, start.limit);
    },

    tasks: (status: AdminTaskStatus | undefined, page: PageRequest) =>
      lists.listTasks(db, { status }, pageStart(page)),

    payments: (page: PageRequest) => lists.listPayments(db, pageStart(page, 'text')),

    webhooks: (page: PageRequest) => lists.listWebhooks(db, pageStart(page, 'text')),

    actions: (page: PageRequest) => lists.listActions(db, pageStart(page)),

    ...mutations,
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
