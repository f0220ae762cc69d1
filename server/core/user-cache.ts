/**
 * In-process cache of what a signed-in request reads about its user: the session with its user
 * row (every authenticated request) and the newest ledger rows (the balance answer).
 *
 * Freshness comes from the database, not from the write paths: a trigger on users, sessions and
 * credit_transactions NOTIFYs the user's id on 'user_change' when its transaction commits
 * (migration 0005), whichever process or hand-typed SQL wrote it, and every process drops that
 * user's entries. Two rules keep a slow read from putting back what a notification removed:
 * - a value read from the database is kept only if no notification arrived while it was read
 *   (`epoch` did not move);
 * - while the listening connection is down nothing is served from or kept in the cache.
 *
 * What it cannot promise: on PostgreSQL a commit made by another connection reaches this process
 * as a notification shortly (well under a millisecond on one host) after the committing call
 * returns, so a read in that instant may answer as of just before it. With DATABASE_DIRECT_URL
 * the same holds for this process's own commits (only the direct connection listens; without
 * it, the pooled connections do, and see their own commits before COMMIT returns). PGlite
 * delivers the notification before the commit resolves. Money never depends on this cache: every debit and
 * grant locks and checks the user's row in its own transaction.
 *
 * Poll mode (DATABASE_NOTIFY=poll, for a transaction pooler without DATABASE_DIRECT_URL): no
 * LISTEN, so nothing tells the cache of a change. An entry is then served for at most
 * `pollMaxAgeMs` (POLL_MAX_AGE_MS, 1 s) from the moment its read began, and read afresh after:
 * a session revoked anywhere (sign-out, an admin) stops working within that second, and a
 * balance shown can be that much behind a payment or a spend, on this instance too. A polled
 * change feed would need a change-log table; a short age needs none and keeps the rule simple.
 */
import { USER_CHANGE_CHANNEL, type Database } from './db.ts';

/** Poll mode's default: how long an entry may be served after its read began (ms). */
export const POLL_MAX_AGE_MS = 1000;

interface SessionEntry<S> {
  value: S;
  userId: string;
  expiresAt: number;
  /** When the read that produced it began (now()). */
  readAt: number;
}

interface UserEntry {
  value: unknown;
  readAt: number;
}

export interface UserCache<S> {
  /**
   * The live session of `tokenHash` from the cache or `load`. `load` answers with the session's
   * user id and expiry so the entry can be dropped with its user and can lapse on time.
   */
  session(
    tokenHash: string,
    load: () => Promise<{ value: S; userId: string; expiresAt: Date } | null>,
  ): Promise<S | null>;
  /**
   * Any value under its own key that belongs to one user (a /v1 video read): the same rules as a
   * session, dropped with its user's notices.
   */
  keyed: UserCache<S>['session'];
  /**
   * The cached session of `tokenHash` when there is a usable one (live, fresh, unexpired), read
   * without a promise: the path every request of a known caller takes. Undefined: ask `session`.
   */
  peek(tokenHash: string): S | undefined;
  /** A per-user value (the newest ledger rows) from the cache or `load`. */
  perUser<T>(kind: string, userId: string, load: () => Promise<T>): Promise<T>;
  /** Counters (the tests read them). */
  stats(): { hits: number; misses: number; live: boolean; sessions: number };
  stop(): Promise<void>;
}

export interface UserCacheOptions {
  /** Entries kept per map; the oldest go first. */
  maxEntries?: number;
  now?: () => number;
  /** 'poll': do not LISTEN; serve entries for at most `pollMaxAgeMs` (default: 'listen'). */
  changeNotices?: 'listen' | 'poll';
  /** Poll mode's bound on an entry's age (default POLL_MAX_AGE_MS). */
  pollMaxAgeMs?: number;
  /** The channel whose notices (a user id each) drop entries (default USER_CHANGE_CHANNEL). */
  channel?: string;
}

export async function createUserCache<S>(
  database: Pick<Database, 'listen'>,
  options: UserCacheOptions = {},
): Promise<UserCache<S>> {
  const maxEntries = options.maxEntries ?? 50_000;
  const now = options.now ?? Date.now;
  const polling = options.changeNotices === 'poll';
  const maxAge = polling ? (options.pollMaxAgeMs ?? POLL_MAX_AGE_MS) : Infinity;
  const fresh = (entry: { readAt: number }) => now() - entry.readAt < maxAge;
  const sessions = new Map<string, SessionEntry<S>>();
  const tokensByUser = new Map<string, Set<string>>();
  const perUser = new Map<string, Map<string, UserEntry>>();
  let epoch = 0;
  // Polling has nothing to wait for: entries are good until they age out.
  let live = polling;
  let hits = 0;
  let misses = 0;

  const forgetSession = (tokenHash: string) => {
    const entry = sessions.get(tokenHash);
    if (!entry) return;
    sessions.delete(tokenHash);
    const tokens = tokensByUser.get(entry.userId);
    tokens?.delete(tokenHash);
    if (tokens?.size === 0) tokensByUser.delete(entry.userId);
  };
  const forgetUser = (userId: string) => {
    epoch += 1;
    for (const tokenHash of tokensByUser.get(userId) ?? []) sessions.delete(tokenHash);
    tokensByUser.delete(userId);
    for (const values of perUser.values()) values.delete(userId);
  };
  const clear = () => {
    epoch += 1;
    sessions.clear();
    tokensByUser.clear();
    perUser.clear();
  };

  const stopListening = polling
    ? async () => {}
    : await database.listen(options.channel ?? USER_CHANGE_CHANNEL, {
        notify: forgetUser,
        gap(listening) {
          clear();
          live = listening;
        },
      });

  const cache: UserCache<S> = {
    peek(tokenHash) {
      const cached = live ? sessions.get(tokenHash) : undefined;
      if (!cached || !(cached.expiresAt > now() && fresh(cached))) return undefined;
      hits += 1;
      return cached.value;
    },

    async session(tokenHash, load) {
      const hit = cache.peek(tokenHash);
      if (hit !== undefined) return hit;
      // An entry that lapsed (or went stale) goes; forgetting no entry does nothing.
      forgetSession(tokenHash);
      misses += 1;
      const started = epoch;
      const readAt = now();
      const found = await load();
      if (!found) return null;
      if (live && epoch === started) {
        if (sessions.size >= maxEntries) forgetSession(sessions.keys().next().value!);
        sessions.set(tokenHash, {
          value: found.value,
          userId: found.userId,
          expiresAt: found.expiresAt.getTime(),
          readAt,
        });
        let tokens = tokensByUser.get(found.userId);
        if (!tokens) tokensByUser.set(found.userId, (tokens = new Set()));
        tokens.add(tokenHash);
      }
      return found.value;
    },

    async perUser<T>(kind: string, userId: string, load: () => Promise<T>) {
      let values = perUser.get(kind);
      if (!values) perUser.set(kind, (values = new Map()));
      const cached = live ? values.get(userId) : undefined;
      if (cached && fresh(cached)) {
        hits += 1;
        return cached.value as T;
      }
      misses += 1;
      const started = epoch;
      const readAt = now();
      const value = await load();
      if (live && epoch === started) {
        // Delete first: a re-read entry moves to the end, so the oldest reads go first.
        values.delete(userId);
        if (values.size >= maxEntries) values.delete(values.keys().next().value!);
        values.set(userId, { value, readAt });
      }
      return value;
    },

    keyed: (key, load) => cache.session(key, load),
    stats: () => ({ hits, misses, live, sessions: sessions.size }),
    stop: () => stopListening(),
  };
  return cache;
}
