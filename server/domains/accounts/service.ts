/**
 * Accounts: sign-in (Google, local, email + password), sessions, password reset.
 * Every sign-in path ends in `startSession`, so tokens are made and stored in one place.
 */
import type { Config } from '../../config.ts';
import type { Authenticator, SessionAndUser } from '../../core/auth.ts';
import type { Db, DbOrTx } from '../../core/db.ts';
import { AppError, conflict, unauthorized } from '../../core/errors.ts';
import type { Mailer } from '../../core/mailer.ts';
import { DUMMY_HASH_PROMISE, hashPassword, verifyPassword } from '../../core/passwords.ts';
import { hashToken, newToken } from '../../core/tokens.ts';
import type { UserCache } from '../../core/user-cache.ts';
import type { UserRow } from '../../db/schema.ts';
import type { PublicUser } from '../../contracts/auth.ts';
import { GoogleIdentityError, type GoogleProfile } from './google-identity.ts';
import * as repo from './repository.ts';

export type { NewUser } from './repository.ts';

export interface GoogleVerifier {
  verifyIdToken(credential: string): Promise<GoogleProfile>;
  verifyAccessToken(token: string): Promise<GoogleProfile>;
}

export interface SignedIn {
  token: string;
  user: PublicUser;
}

const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

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

const normalizeEmail = (email: string) => email.trim().toLowerCase();

export function createAccountsService(deps: {
  db: Db;
  config: Config;
  google: GoogleVerifier;
  mailer: Mailer;
  /** Optional: without it every request reads its session from the database. */
  userCache?: UserCache<SessionAndUser>;
}) {
  const { db, config, google, mailer, userCache } = deps;
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

  async function signInWithGoogleProfile(profile: GoogleProfile): Promise<SignedIn> {
    const email = normalizeEmail(profile.email);
    let user = await repo.findUserByGoogleSub(db, profile.sub);
    if (!user) {
      const byEmail = await repo.findUserByEmail(db, email);
      user = byEmail
        ? await repo.updateUser(db, byEmail.id, {
            googleSub: profile.sub,
            name: byEmail.name ?? profile.name,
            picture: profile.picture ?? byEmail.picture,
          })
        : await repo.insertUserOrGetByEmail(db, {
            email,
            name: profile.name,
            picture: profile.picture,
            provider: 'google',
            googleSub: profile.sub,
          });
    } else if (profile.picture && profile.picture !== user.picture) {
      user = await repo.updateUser(db, user.id, { picture: profile.picture });
    }
    return startSession(user);
  }

  return {
    toPublicUser,

    findUser: (id: string) => repo.findUserById(db, id),

    /** `credential` is a GIS ID token; `token` is the spec's OAuth access-token form. */
    async signInWithGoogle(input: { credential?: string | undefined; token?: string | undefined }) {
      if (!input.credential && !input.token) {
        throw new AppError(400, 'VALIDATION_ERROR', "Send the Google 'credential' or 'token'.");
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
        : await repo.insertUserOrGetByEmail(db, { email, name, provider: 'local' });
      return startSession(user);
    },

    async signUp(input: { email: string; password: string; name?: string | undefined }) {
      const email = normalizeEmail(input.email);
      const passwordHash = await hashPassword(input.password);
      const created = await repo.insertUser(db, {
        email,
        name: input.name?.trim() || null,
        provider: 'email',
        passwordHash,
      });
      if (!created) {
        throw conflict(
          'An account with this email already exists. Sign in instead, or reset your password.',
          'EMAIL_TAKEN',
        );
      }
      return startSession(created);
    },

    /** One generic error for a wrong email or a wrong password, in the same time. */
    async signIn(input: { email: string; password: string }): Promise<SignedIn> {
      const user = await repo.findUserByEmail(db, normalizeEmail(input.email));
      const ok = user?.passwordHash
        ? await verifyPassword(input.password, user.passwordHash)
        : (await verifyPassword(input.password, await DUMMY_HASH_PROMISE), false);
      if (!user || !ok) throw unauthorized('Invalid email or password.', 'INVALID_CREDENTIALS');
      return startSession(user);
    },

    /** Always resolves the same way; mails a single-use link only when the account exists. */
    async requestPasswordReset(emailInput: string): Promise<void> {
      const user = await repo.findUserByEmail(db, normalizeEmail(emailInput));
      if (!user) return;
      const token = newToken();
      await repo.insertResetToken(db, {
        userId: user.id,
        tokenHash: hashToken(token),
        expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
      });
      const link = `${config.publicSiteUrl}/reset-password?token=${token}`;
      await mailer.send({
        to: user.email,
        subject: 'Reset your password',
        text: [
          'Someone asked to reset the password of your account.',
          '',
          `Choose a new password here (the link works once, for one hour):`,
          link,
          '',
          'If it was not you, ignore this message; your password stays as it is.',
        ].join('\n'),
      });
    },

    /** Sets a new password with a reset token; the token works once and signs out every session. */
    async confirmPasswordReset(input: { token: string; password: string }): Promise<void> {
      const passwordHash = await hashPassword(input.password);
      await db.transaction(async (tx) => {
        const userId = await repo.consumeResetToken(tx, hashToken(input.token));
        if (!userId) {
          throw new AppError(
            400,
            'RESET_TOKEN_INVALID',
            'This reset link is invalid, expired or already used. Ask for a new one.',
          );
        }
        await repo.updateUser(tx, userId, { passwordHash });
        await repo.revokeAllSessions(tx, userId);
      });
    },

    async signOut(sessionId: string): Promise<void> {
      await repo.revokeSession(db, sessionId);
    },

    /**
     * For the admin sign-in, inside its transaction: the users row an operator's sessions belong
     * to (created on first use; admin/identity.ts), and an admin session on it.
     */
    findOrCreateUser: (tx: DbOrTx, user: repo.NewUser) => repo.insertUserOrGetByEmail(tx, user),
    openAdminSession: (
      tx: DbOrTx,
      session: { userId: string; tokenHash: string; expiresAt: Date },
    ): Promise<void> => repo.insertSession(tx, { ...session, isAdmin: true }),

    authenticator: {
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
      return new AppError(404, error.code, error.message);
    case 'GOOGLE_UNAVAILABLE':
      return new AppError(503, error.code, error.message);
    default:
      return new AppError(401, error.code, error.message);
  }
}
