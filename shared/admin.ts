/**
 * Admin values the dashboard and the server both use (issue 7; spec 1 "admin login and status",
 * 7 admin calls). Plain values only: the schemas are in server/contracts/admin.ts.
 */

/** Error codes and texts of the admin sign-in, quoted by the dashboard and the tests. */
export const ADMIN_MESSAGES = {
  invalidCredentials: 'Wrong username or password.',
  locked: (minutes: number) =>
    `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  notConfigured:
    'No admin account is configured on this server. Set ADMIN_USERNAME and ADMIN_PASSWORD_HASH (see the README).',
  overdraft: (balance: number) => `This would take the balance below zero (balance ${balance}).`,
} as const;

export const ADMIN_CODES = {
  invalidCredentials: 'INVALID_ADMIN_CREDENTIALS',
  locked: 'ADMIN_LOCKED',
  notConfigured: 'ADMIN_NOT_CONFIGURED',
} as const;

/** Where the dashboard keeps the admin session token (not the user's `authToken`). */
export const ADMIN_TOKEN_STORAGE_KEY = 'adminToken';

/** Rows a page of an admin list shows, and the most the server sends at once. */
export const ADMIN_PAGE_SIZE = 20;
export const ADMIN_PAGE_MAX = 100;
/**
 * The user search needs this many characters: it is a trigram index search (pg_trgm), and a
 * shorter text has no trigram, so it would read every user.
 */
export const USER_SEARCH_MIN_LENGTH = 3;
export const USER_SEARCH_TOO_SHORT = `Type at least ${USER_SEARCH_MIN_LENGTH} characters of the email to search.`;

/** An adjustment adds or takes away at most this many credits at once. */
export const CREDIT_ADJUST_LIMIT = 1_000_000;
/** The reason kept with an adjustment's ledger entry: this many characters at least, at most. */
export const ADJUST_REASON_MIN = 3;
export const ADJUST_REASON_MAX = 200;

/** UTC days the overview's daily charts cover, and the most GET /api/admin/stats/daily allows. */
export const DAILY_STATS_DEFAULT_DAYS = 30;
export const DAILY_STATS_MAX_DAYS = 90;
