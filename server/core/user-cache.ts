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
 * returns, so a read in that instant may answer as of just before it. PGlite delivers the
 * notification before the commit resolves. Money never depends on this cache: every debit and
 * grant locks and checks the user's row in its own transaction.
 */
import { USER_CHANGE_CHANNEL, type Database } from './db.ts';

interface SessionEntry<S> {
  value: S;
  userId: string;
  expiresAt: number;
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
}

export async function createUserCache<S>(
  database: Pick<Database, 'listen'>,
  options: UserCacheOptions = {},
): Promise<UserCache<S>> {
  const maxEntries = options.maxEntries ?? 50_000;
  const now = options.now ?? Date.now;
  const sessions = new Map<string, SessionEntry<S>>();
  const tokensByUser = new Map<string, Set<string>>();
  const perUser = new Map<string, Map<string, unknown>>();
  let epoch = 0;
  let live = false;
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

  const stopListening = await database.listen(USER_CHANGE_CHANNEL, {
    notify: forgetUser,
    gap(listening) {
      clear();
      live = listening;
    },
  });

  return {
    async session(tokenHash, load) {
      const cached = live ? sessions.get(tokenHash) : undefined;
      if (cached) {
        if (cached.expiresAt > now()) {
          hits += 1;
          return cached.value;
        }
        forgetSession(tokenHash);
      }
      misses += 1;
      const started = epoch;
      const found = await load();
      if (!found) return null;
      if (live && epoch === started) {
        if (sessions.size >= maxEntries) forgetSession(sessions.keys().next().value!);
        sessions.set(tokenHash, {
          value: found.value,
          userId: found.userId,
          expiresAt: found.expiresAt.getTime(),
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
      if (live && values.has(userId)) {
        hits += 1;
        return values.get(userId) as T;
      }
      misses += 1;
      const started = epoch;
      const value = await load();
      if (live && epoch === started) {
        if (values.size >= maxEntries) values.delete(values.keys().next().value!);
        values.set(userId, value);
      }
      return value;
    },

    stats: () => ({ hits, misses, live, sessions: sessions.size }),
    stop: () => stopListening(),
  };
}
