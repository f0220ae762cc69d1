/**
 * Accounts: sign-in (Google, local, email + password), sessions, password reset.
 * Every sign-in path ends in `startSession`, so tokens are made and stored in one place.
 * Email/password accounts and their proof of address live in email-accounts.ts.
 */
import type { Config } from '../../config.ts';
import type { Authenticator, SessionAndUser } from '../../core/auth.ts';
import type { Db, DbOrTx, Tx } from '../../core/db.ts';
import { AppError, conflict } from '../../core/errors.ts';
import type { MailQueue } from '../../core/mail-queue.ts';
import type { Mailer } from '../../core/mailer.ts';
import { hashToken, newToken } from '../../core/tokens.ts';
import type { UserCache } from '../../core/user-cache.ts';
import type { UserRow } from '../../db/schema.ts';
import type { PublicUser } from '../../contracts/auth.ts';
import { createEmailAccounts, normalizeEmail } from './email-accounts.ts';
import { GoogleIdentityError, type GoogleProfile } from './google-identity.ts';
import * as repo from './repository.ts';
import { msg } from '../../core/api-messages.ts';

export interface GoogleVerifier {
  verifyIdToken(credential: string): Promise<GoogleProfile>;
  verifyAccessToken(token: string): Promise<GoogleProfile>;
}

export interface SignedIn {
  token: string;
  user: PublicUser;
}

/** A first sign-in of one Google account lost a race; retrying finds the winner's row. */
class ConcurrentGoogleSignIn extends Error {}
const GOOGLE_SIGN_IN_ATTEMPTS = 3;

/** Maps a user row to the API's user object (spec 3 "User"): the one place rows become JSON. */
export function toPublicUser(row: UserRow): PublicUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    picture: row.picture,
    avatar_url: row.avatarUrl,
    credits: row.credits,
    provider: row.provider,
    can_manage_blog: row.canManageBlog,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function createAccountsService(deps: {
  db: Db;
  config: Config;
  google: GoogleVerifier;
  mailer: Mailer;
  /** Where mail that must not hold up an answer (password resets) is sent from. */
  mailQueue: MailQueue;
  /** Optional: without it every request reads its session from the database. */
  userCache?: UserCache<SessionAndUser>;
}) {
  const { db, config, google, mailer, mailQueue, userCache } = deps;
  const findLiveSession = repo.prepareFindLiveSession(db);
  /**
   * Sessions come from the user cache when there is one: a sign-out, revocation or change of the
   * user on any instance drops the entry when it commits (core/user-cache.ts).
   */
  const lookUpSession = async (tokenHash: string) => {
    const load = async () => {
      const row = await findLiveSession(tokenHash);
      if (!row) return null;
      const { expiresAt, ...value } = row;
      return { value, userId: row.user.id, expiresAt };
    };
    if (userCache) return userCache.session(tokenHash, load);
    return (await load())?.value ?? null;
  };

  /** Operators name the first blog editors in BLOG_EDITORS; they are granted at sign-in. */
  async function applyConfiguredRoles(user: UserRow): Promise<UserRow> {
    if (!user.canManageBlog && config.blogEditors.has(user.email)) {
      return repo.updateUser(db, user.id, { canManageBlog: true });
    }
    return user;
  }

  async function startSession(user: UserRow): Promise<SignedIn> {
    const withRoles = await applyConfiguredRoles(user);
    const token = newToken();
    await repo.insertSession(db, {
      userId: withRoles.id,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + config.sessionTtlMs),
    });
    return { token, user: toPublicUser(withRoles) };
  }

  /**
   * Gives the mailbox owner an account nobody else proved: the Google identity replaces the
   * password, the sessions and the pending links of whoever signed up with that email before.
   */
  async function takeOverUnproven(tx: Tx, user: UserRow, profile: GoogleProfile) {
    await repo.revokeAllSessions(tx, user.id);
    await repo.spendResetTokens(tx, user.id);
    await repo.spendVerificationTokens(tx, user.id);
    return repo.updateUser(tx, user.id, {
      provider: 'google',
      googleSub: profile.sub,
      passwordHash: null,
      emailVerifiedAt: new Date(),
      name: profile.name,
      picture: profile.picture,
      avatarUrl: null,
    });
  }

  /**
   * The account of a Google identity, keyed by `sub`. Its email joins an existing account only
   * when that account proved the address; an unproven one is taken over; one bound to another
   * `sub` is refused, never rebound.
   */
  async function googleUser(tx: Tx, profile: GoogleProfile): Promise<UserRow> {
    const bySub = await repo.findUserByGoogleSub(tx, profile.sub);
    if (bySub) {
      // Linked before addresses were proven: whoever set its password may not be this person.
      if (!bySub.emailVerifiedAt) {
        const locked = await repo.lockUser(tx, bySub.id);
        if (locked && !locked.emailVerifiedAt) return takeOverUnproven(tx, locked, profile);
      }
      return profile.picture && profile.picture !== bySub.picture
        ? repo.updateUser(tx, bySub.id, { picture: profile.picture })
        : bySub;
    }
    const email = normalizeEmail(profile.email);
    const byEmail = await repo.lockUserByEmail(tx, email);
    if (!byEmail) {
      const created = await repo.insertUser(tx, {
        email,
        name: profile.name,
        picture: profile.picture,
        provider: 'google',
        googleSub: profile.sub,
        emailVerifiedAt: new Date(),
      });
      if (!created) throw new ConcurrentGoogleSignIn();
      return created;
    }
    // Bound by a concurrent sign-in of this same identity while we waited for the lock.
    if (byEmail.googleSub === profile.sub) return byEmail;
    if (byEmail.googleSub) {
      throw conflict(msg('google.account_conflict'), 'GOOGLE_ACCOUNT_CONFLICT');
    }
    if (!byEmail.emailVerifiedAt) return takeOverUnproven(tx, byEmail, profile);
    return repo.updateUser(tx, byEmail.id, {
      googleSub: profile.sub,
      name: byEmail.name ?? profile.name,
      picture: profile.picture ?? byEmail.picture,
    });
  }

  async function signInWithGoogleProfile(profile: GoogleProfile): Promise<SignedIn> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await startSession(await db.transaction((tx) => googleUser(tx, profile)));
      } catch (error) {
        const raced = error instanceof ConcurrentGoogleSignIn || repo.isUniqueViolation(error);
        if (!raced || attempt >= GOOGLE_SIGN_IN_ATTEMPTS) throw error;
      }
    }
  }

  const emailAccounts = createEmailAccounts({ db, config, mailer, mailQueue, startSession });

  return {
    toPublicUser,

    findUser: (id: string) => repo.findUserById(db, id),

    /** `credential` is a GIS ID token; `token` is the spec's OAuth access-token form. */
    async signInWithGoogle(input: { credential?: string | undefined; token?: string | undefined }) {
      if (!input.credential && !input.token) {
        throw new AppError(400, 'VALIDATION_ERROR', msg('google.credential_required'));
      }
      try {
        const profile = input.credential
          ? await google.verifyIdToken(input.credential)
          : await google.verifyAccessToken(input.token!);
        return await signInWithGoogleProfile(profile);
      } catch (error) {
        if (error instanceof GoogleIdentityError) throw googleError(error);
        throw error;
      }
    },

    /** Local mode only: a name and an email create or reuse an account. */
    async signInLocal(input: { name: string; email: string }): Promise<SignedIn> {
      const email = normalizeEmail(input.email);
      const name = input.name.trim();
      const existing = await repo.findUserByEmail(db, email);
      const user = existing
        ? existing.name === name
          ? existing
          : await repo.updateUser(db, existing.id, { name })
        : await repo.insertUserOrGetByEmail(db, {
            email,
            name,
            provider: 'local',
            emailVerifiedAt: new Date(),
          });
      return startSession(user);
    },

    ...emailAccounts,

    async signOut(sessionId: string): Promise<void> {
      await repo.revokeSession(db, sessionId);
    },

    /**
     * The hourly cleanup: sessions and reset or verification links dead for a day go (the day
     * keeps a just-expired link or session visible to support for a while).
     */
    deleteDeadCredentials: () => repo.deleteDeadCredentials(db, 24),

    /**
     * For the admin sign-in, inside its transaction: the users row an operator's sessions belong
     * to (created on first use; admin/identity.ts), and an admin session on it.
     */
    findOrCreateUser: (tx: DbOrTx, user: repo.NewUser) =>
      repo.insertUserOrGetByEmail(tx, { emailVerifiedAt: new Date(), ...user }),
    openAdminSession: (
      tx: DbOrTx,
      session: { userId: string; tokenHash: string; expiresAt: Date },
    ): Promise<void> => repo.insertSession(tx, { ...session, isAdmin: true }),

    authenticator: {
      cached(token: string) {
        if (token.length > 200) return undefined;
        return userCache?.peek(hashToken(token));
      },
      async authenticate(token: string) {
        if (token.length > 200) return null;
        return lookUpSession(hashToken(token));
      },
    } satisfies Authenticator,
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;

function googleError(error: GoogleIdentityError): AppError {
  switch (error.code) {
    case 'GOOGLE_NOT_CONFIGURED':
      return new AppError(404, error.code, error.text);
    case 'GOOGLE_UNAVAILABLE':
      return new AppError(503, error.code, error.text);
    default:
      return new AppError(401, error.code, error.text);
  }
}
