/**
 * How an operator exists in the database.
 *
 * Sessions belong to a users row (sessions.user_id is a foreign key), so each configured admin
 * username gets one dedicated row: provider 'admin', email `admin:<username>`, no password hash,
 * no Google subject, 0 credits. That row can never be used to sign in any other way: every
 * customer sign-in path matches by a validated email address (the `format: 'email'` schemas, or
 * Google's verified email), and `admin:<username>` has no '@', so no form can name it; with no
 * password hash the email sign-in always fails for it. The admin API leaves these rows out of
 * every user list, count and lookup, and the data API must too (only its own session could
 * reach it). Admin rights live on the session (sessions.is_admin, set only by the admin
 * sign-in), never on the row: a leaked customer token stays a customer token.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { DbOrTx } from '../../core/db.ts';
import type { UserRow } from '../../db/schema.ts';
import type { AccountsService } from '../accounts/service.ts';

const ADMIN_EMAIL_PREFIX = 'admin:';

const adminEmail = (username: string) => `${ADMIN_EMAIL_PREFIX}${username}`;

/** The name an admin session acts under (the audit trail's `admin`). */
export function adminName(user: UserRow): string {
  return user.provider === 'admin' && user.email.startsWith(ADMIN_EMAIL_PREFIX)
    ? user.email.slice(ADMIN_EMAIL_PREFIX.length)
    : user.email;
}

/** The row behind `username`'s admin sessions, created on the first sign-in. */
export async function adminUserRow(
  accounts: Pick<AccountsService, 'findOrCreateUser'>,
  tx: DbOrTx,
  username: string,
): Promise<UserRow> {
  const row = await accounts.findOrCreateUser(tx, {
    email: adminEmail(username),
    name: username,
    provider: 'admin',
  });
  if (row.provider !== 'admin') throw new Error(`users row ${row.id} is not an admin row`);
  return row;
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Compares two usernames in time that depends on neither: both are hashed to 32 bytes first,
 * so neither their length nor their first differing character shows in the timing.
 */
export function sameUsername(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}
