/**
 * SQL for users, sessions, password-reset and email-verification tokens. Every function takes
 * `db | tx` first.
 */
import { and, desc, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import { queryRows, type Db, type DbOrTx } from '../../core/db.ts';
import {
  emailVerificationTokens,
  passwordResetTokens,
  sessions,
  users,
  type UserRow,
} from '../../db/schema.ts';

export type NewUser = typeof users.$inferInsert;

export async function findUserById(db: DbOrTx, id: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row ?? null;
}

/** The user with this email, locked until the transaction ends (sign-up, Google join). */
export async function lockUserByEmail(db: DbOrTx, email: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).for('update');
  return row ?? null;
}

/** The user row, locked until the transaction ends. */
export async function lockUser(db: DbOrTx, id: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).for('update');
  return row ?? null;
}

export async function findUserByGoogleSub(db: DbOrTx, sub: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.googleSub, sub)).limit(1);
  return row ?? null;
}

/** Inserts a user, or returns the existing row when the email is taken (a concurrent sign-in). */
export async function insertUserOrGetByEmail(db: DbOrTx, user: NewUser): Promise<UserRow> {
  const [row] = await db.insert(users).values(user).onConflictDoNothing().returning();
  if (row) return row;
  const existing = await findUserByEmail(db, user.email);
  if (!existing) throw new Error(`user ${user.email} vanished after a conflicting insert`);
  return existing;
}

export async function insertUser(db: DbOrTx, user: NewUser): Promise<UserRow | null> {
  const [row] = await db.insert(users).values(user).onConflictDoNothing().returning();
  return row ?? null;
}

export async function updateUser(
  db: DbOrTx,
  id: string,
  changes: Partial<
    Pick<
      NewUser,
      | 'name'
      | 'picture'
      | 'avatarUrl'
      | 'googleSub'
      | 'passwordHash'
      | 'canManageBlog'
      | 'provider'
      | 'emailVerifiedAt'
    >
  >,
): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning();
  if (!row) throw new Error(`user ${id} not found`);
  return row;
}

/** `isAdmin` only for the admin sign-in: admin rights live on the session, never on the user. */
export async function insertSession(
  db: DbOrTx,
  values: { userId: string; tokenHash: string; expiresAt: Date; isAdmin?: boolean },
): Promise<void> {
  await db.insert(sessions).values(values);
}

/**
 * The live (unrevoked, unexpired) session for a token hash, with its user: one lookup on the
 * unique token_hash index. It runs on every signed-in request, so it is a prepared statement:
 * drizzle builds its SQL once, and PostgreSQL plans it once per connection.
 */
export function prepareFindLiveSession(db: Db) {
  const query = db
    .select({
      session: { id: sessions.id, userId: sessions.userId, isAdmin: sessions.isAdmin },
      user: users,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
      ),
    )
    .limit(1)
    .prepare('find_live_session');
  return async (tokenHash: string) => {
    const [row] = await query.execute({ tokenHash });
    return row ?? null;
  };
}

export async function revokeSession(db: DbOrTx, sessionId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

export async function revokeAllSessions(db: DbOrTx, userId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

export async function insertResetToken(
  db: DbOrTx,
  values: { userId: string; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db.insert(passwordResetTokens).values(values);
}

/** Marks a reset token used and returns its user id; null when unknown, used or expired.
 * One UPDATE, so two concurrent uses cannot both succeed. */
export async function consumeResetToken(db: DbOrTx, tokenHash: string): Promise<string | null> {
  const [row] = await db
    .update(passwordResetTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(passwordResetTokens.tokenHash, tokenHash),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ userId: passwordResetTokens.userId });
  return row?.userId ?? null;
}

/** Spends every unused reset link of a user (their account changed hands or was proven). */
export async function spendResetTokens(db: DbOrTx, userId: string): Promise<void> {
  await db
    .update(passwordResetTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
}

export async function insertVerificationToken(
  db: DbOrTx,
  values: {
    userId: string;
    tokenHash: string;
    passwordHash: string | null;
    name: string | null;
    expiresAt: Date;
  },
): Promise<void> {
  await db.insert(emailVerificationTokens).values(values);
}

/**
 * Marks a verification token used and returns what its sign-up chose; null when unknown, used or
 * expired. One UPDATE, so two concurrent uses cannot both succeed.
 */
export async function consumeVerificationToken(
  db: DbOrTx,
  tokenHash: string,
): Promise<{ userId: string; passwordHash: string | null; name: string | null } | null> {
  const [row] = await db
    .update(emailVerificationTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(emailVerificationTokens.tokenHash, tokenHash),
        isNull(emailVerificationTokens.usedAt),
        gt(emailVerificationTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({
      userId: emailVerificationTokens.userId,
      passwordHash: emailVerificationTokens.passwordHash,
      name: emailVerificationTokens.name,
    });
  return row ?? null;
}

/** The newest live sign-up link of a user (its password and name), or null. */
export async function findLatestPendingSignUp(
  db: DbOrTx,
  userId: string,
): Promise<{ passwordHash: string; name: string | null } | null> {
  const [row] = await db
    .select({
      passwordHash: emailVerificationTokens.passwordHash,
      name: emailVerificationTokens.name,
    })
    .from(emailVerificationTokens)
    .where(
      and(
        eq(emailVerificationTokens.userId, userId),
        isNull(emailVerificationTokens.usedAt),
        isNotNull(emailVerificationTokens.passwordHash),
        gt(emailVerificationTokens.expiresAt, sql`now()`),
      ),
    )
    .orderBy(desc(emailVerificationTokens.createdAt))
    .limit(1);
  return row?.passwordHash ? { passwordHash: row.passwordHash, name: row.name } : null;
}

/** Spends every unused verification link of a user: once proven, no older sign-up may apply. */
export async function spendVerificationTokens(db: DbOrTx, userId: string): Promise<void> {
  await db
    .update(emailVerificationTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(emailVerificationTokens.userId, userId), isNull(emailVerificationTokens.usedAt)));
}

/**
 * Deletes sessions and single-use links that stopped working more than `graceHours` ago (expired,
 * or for sessions also revoked), and says how many of each went. Nothing reads such rows: every
 * lookup asks for a live one.
 */
export async function deleteDeadCredentials(
  db: DbOrTx,
  graceHours: number,
): Promise<{ sessions: number; resetTokens: number; verificationTokens: number }> {
  const cutoff = sql`now() - make_interval(hours => ${graceHours}::integer)`;
  const [row] = await queryRows<{ sessions: number; reset: number; verification: number }>(
    db,
    sql`with s as (
          delete from ${sessions}
          where ${sessions.expiresAt} < ${cutoff} or ${sessions.revokedAt} < ${cutoff}
          returning 1
        ), r as (
          delete from ${passwordResetTokens} where ${passwordResetTokens.expiresAt} < ${cutoff}
          returning 1
        ), v as (
          delete from ${emailVerificationTokens}
          where ${emailVerificationTokens.expiresAt} < ${cutoff}
          returning 1
        )
        select (select count(*) from s)::int as sessions, (select count(*) from r)::int as reset,
               (select count(*) from v)::int as verification`,
  );
  return {
    sessions: row?.sessions ?? 0,
    resetTokens: row?.reset ?? 0,
    verificationTokens: row?.verification ?? 0,
  };
}

/** True for PostgreSQL's unique_violation (23505), however the driver wraps it. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
