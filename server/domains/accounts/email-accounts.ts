/**
 * Email/password accounts: sign-up, proof of the address, password sign-in and password reset.
 * An address counts as the account's only once its mailbox owner opened a link we mailed to it
 * (issue 16, finding 1): until then nobody signs in with a password, and a Google sign-in with
 * that address takes the account over (service.ts). Every mail draws on its address's hourly
 * budget (mail-allowance.ts); past it the request answers as it would and mails nothing.
 */
import type { Config } from '../../config.ts';
import type { Db, DbOrTx } from '../../core/db.ts';
import { AppError, conflict, unauthorized } from '../../core/errors.ts';
import type { MailQueue } from '../../core/mail-queue.ts';
import type { Mailer } from '../../core/mailer.ts';
import { DUMMY_HASH_PROMISE, hashPassword, verifyPassword } from '../../core/passwords.ts';
import { hashToken, newToken } from '../../core/tokens.ts';
import type { UserRow } from '../../db/schema.ts';
import { PATH_PREFIXES, type Locale } from '../../../shared/locales.ts';
import { resetEmail, verificationEmail, type VerificationReason } from './emails.ts';
import { takeMailAllowance } from './mail-allowance.ts';
import * as repo from './repository.ts';
import { answerText, msg } from '../../core/api-messages.ts';

const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
const VERIFICATION_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

/** The answer to every accepted sign-up, new address or unproven one alike (no enumeration). */
export const SIGN_UP_MESSAGE = answerText('accounts.sign_up_sent');

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

const invalidVerification = () =>
  new AppError(400, 'VERIFICATION_TOKEN_INVALID', msg('accounts.verification_invalid'));

export function createEmailAccounts<S>(deps: {
  db: Db;
  config: Config;
  mailer: Mailer;
  /** Where password resets do their work, after the answer. */
  mailQueue: MailQueue;
  startSession: (user: UserRow) => Promise<S>;
}) {
  const { db, config, mailer, mailQueue, startSession } = deps;

  /**
   * Stores a new verification token and returns it. `chosen` is what a sign-up asked for; it is
   * applied only when this token is used, so only the mailbox owner's click decides the password.
   */
  async function issueVerificationToken(
    tx: DbOrTx,
    userId: string,
    chosen: { passwordHash: string; name: string | null } | null,
  ): Promise<string> {
    const token = newToken();
    await repo.insertVerificationToken(tx, {
      userId,
      tokenHash: hashToken(token),
      passwordHash: chosen?.passwordHash ?? null,
      name: chosen?.name ?? null,
      expiresAt: new Date(Date.now() + VERIFICATION_TOKEN_TTL_MS),
    });
    return token;
  }

  async function mailVerificationLink(
    to: string,
    token: string,
    reason: VerificationReason,
    locale: Locale,
  ) {
    // The page asks for a click before it uses the token: mail scanners fetch links on their own.
    const link = `${config.publicSiteUrl}${PATH_PREFIXES[locale]}/verify-email?token=${token}`;
    await mailer.send({ to, ...verificationEmail(locale, link, reason) });
  }

  /** A single-use reset link to the account of `email`, if there is one and its budget allows. */
  async function mailResetLink(email: string, locale: Locale) {
    const user = await repo.findUserByEmail(db, email);
    if (!user || !(await takeMailAllowance(db, user.email))) return;
    const token = newToken();
    await repo.insertResetToken(db, {
      userId: user.id,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
    });
    const link = `${config.publicSiteUrl}${PATH_PREFIXES[locale]}/reset-password?token=${token}`;
    await mailer.send({ to: user.email, ...resetEmail(locale, link) });
  }

  return {
    /**
     * Mails a confirmation link; the account is usable once it is opened. A proven address is
     * refused (409); an unproven one answers like a new one and gets a link of its own.
     */
    async signUp(
      input: { email: string; password: string; name?: string | undefined },
      locale: Locale = 'en',
    ) {
      const email = normalizeEmail(input.email);
      const passwordHash = await hashPassword(input.password);
      const name = input.name?.trim() || null;
      const token = await db.transaction(async (tx) => {
        const user =
          (await repo.insertUser(tx, { email, provider: 'email' })) ??
          (await repo.lockUserByEmail(tx, email));
        if (!user) throw new Error(`user ${email} vanished after a conflicting insert`);
        if (user.emailVerifiedAt) {
          throw conflict(msg('accounts.email_taken'), 'EMAIL_TAKEN');
        }
        if (!(await takeMailAllowance(tx, email))) return null;
        return issueVerificationToken(tx, user.id, { passwordHash, name });
      });
      if (token) await mailVerificationLink(email, token, 'sign-up', locale);
    },

    /**
     * Uses a confirmation link: proves the address, applies the password and name its sign-up
     * chose, ends every earlier session and link (they predate the proof), and signs in.
     */
    async verifyEmail(token: string): Promise<S> {
      const user = await db.transaction(async (tx) => {
        const chosen = await repo.consumeVerificationToken(tx, hashToken(token));
        const locked = chosen && (await repo.lockUser(tx, chosen.userId));
        // A proven account takes no more links: a pending sign-up must not replace its password.
        if (!chosen || !locked || locked.emailVerifiedAt) throw invalidVerification();
        await repo.spendVerificationTokens(tx, locked.id);
        await repo.revokeAllSessions(tx, locked.id);
        return repo.updateUser(tx, locked.id, {
          emailVerifiedAt: new Date(),
          ...(chosen.passwordHash ? { passwordHash: chosen.passwordHash, name: chosen.name } : {}),
        });
      });
      return startSession(user);
    },

    /**
     * One generic error for a wrong email or a wrong password, in the same time. The right
     * password of an unproven account (its own, or the one its latest sign-up chose) is refused
     * too, with a fresh link to the mailbox that carries that sign-up's choices.
     */
    async signIn(input: { email: string; password: string }, locale: Locale = 'en'): Promise<S> {
      const user = await repo.findUserByEmail(db, normalizeEmail(input.email));
      const pending =
        user && !user.emailVerifiedAt ? await repo.findLatestPendingSignUp(db, user.id) : null;
      const matches = async (hash: string | null | undefined) =>
        Boolean(hash) && (await verifyPassword(input.password, hash!));
      const ownPassword = await matches(user?.passwordHash);
      const pendingPassword = !ownPassword && (await matches(pending?.passwordHash));
      if (!user?.passwordHash && !pending) {
        await verifyPassword(input.password, await DUMMY_HASH_PROMISE); // same time as a miss
      }
      if (!user || !(ownPassword || pendingPassword)) {
        throw unauthorized(msg('accounts.invalid_credentials'), 'INVALID_CREDENTIALS');
      }
      if (!user.emailVerifiedAt) {
        if (await takeMailAllowance(db, user.email)) {
          const token = await issueVerificationToken(db, user.id, pendingPassword ? pending : null);
          await mailVerificationLink(user.email, token, 'sign-in', locale);
        }
        throw new AppError(403, 'EMAIL_NOT_VERIFIED', msg('accounts.email_not_verified'));
      }
      return startSession(user);
    },

    /**
     * Returns at once, the same for every address (issue 34, finding 6): looking the account up
     * and mailing its link happen after the answer, so its time tells nobody whether it exists.
     */
    requestPasswordReset(emailInput: string, locale: Locale = 'en'): void {
      const email = normalizeEmail(emailInput);
      mailQueue.later('password-reset mail', () => mailResetLink(email, locale));
    },

    /** Resolves when every mail queued so far is sent or given up (app close; tests). */
    queuedMailSettled: () => mailQueue.settled(),

    /**
     * Sets a new password with a reset token; the token works once and signs out every session.
     * The link reached the mailbox, so it also proves the address.
     */
    async confirmPasswordReset(input: { token: string; password: string }): Promise<void> {
      const passwordHash = await hashPassword(input.password);
      await db.transaction(async (tx) => {
        const userId = await repo.consumeResetToken(tx, hashToken(input.token));
        const user = userId && (await repo.lockUser(tx, userId));
        if (!user) {
          throw new AppError(400, 'RESET_TOKEN_INVALID', msg('accounts.reset_invalid'));
        }
        await repo.updateUser(tx, user.id, {
          passwordHash,
          emailVerifiedAt: user.emailVerifiedAt ?? new Date(),
        });
        await repo.spendVerificationTokens(tx, user.id);
        await repo.revokeAllSessions(tx, user.id);
      });
    },
  };
}
