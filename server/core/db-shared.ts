/**
 * What the database adapters (db-pglite.ts, db-postgres.ts) and every repository share: the
 * `Database` contract, drizzle's handle types, lock keys, NOTIFY channels and `queryRows`.
 * Callers import all of it from db.ts; only the adapters import this module directly, so db.ts
 * can load the adapter it needs on demand without an import circle.
 */
import { fileURLToPath } from 'node:url';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from '../db/schema.ts';

type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle; repositories take `Db | Tx` as their first argument. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * How this process learns of other writers' changes: 'listen' (LISTEN/NOTIFY, `listen` works)
   * or 'poll' (DATABASE_NOTIFY=poll: nothing LISTENs and `listen` refuses; caches expire instead).
   */
  changeNotices: 'listen' | 'poll';
  /** Applies the committed SQL migrations; safe to call on every start. */
  migrate(): Promise<void>;
  /** Cheap reachability probe for /api/health. */
  ping(): Promise<boolean>;
  /**
   * Runs `fn` while holding the PostgreSQL advisory lock `key` (one of LOCK_KEYS), so processes
   * sharing the database take turns; the lock lives on its own connection and dies with it, so a
   * killed holder never blocks the others. PGlite serves one process only: `fn` just runs.
   */
  exclusive<T>(key: number, fn: () => Promise<T>): Promise<T>;
  /**
   * Delivers every NOTIFY on `channel` committed by any process to `handlers.notify`. When
   * notifications may have been missed (the listening connection dropped), `handlers.gap(false)`
   * runs at once and `gap(true)` once listening resumes; callers drop what they cached and cache
   * nothing in between. PGlite delivers a commit's notifications before the commit resolves.
   */
  listen(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>>;
  /** PGlite only: the whole database as a dump that `openPglite(…, { loadDataDir })` starts from. */
  dump?(): Promise<Blob>;
  close(): Promise<void>;
}

export interface ListenHandlers {
  notify(payload: string): void;
  gap(listening: boolean): void;
}

/** The SQL migrations both adapters apply. */
export const migrationsFolder = fileURLToPath(new URL('../db/migrations', import.meta.url));

/** pg_advisory_lock keys: work that two processes on one database must not do at once. */
export const LOCK_KEYS = {
  migrate: 727_001,
  /** A site build (instances share DATA_DIR/site: one writes a release at a time). */
  siteBuild: 727_002,
  /** Local mode's sample articles, added once by whichever instance starts first. */
  blogSeed: 727_003,
} as const;

/** Raised by migration 0005's triggers with a user's id when their row, sessions or ledger change. */
export const USER_CHANGE_CHANNEL = 'user_change';
/** Sent with a release id by the instance that moved the bucket's live site release. */
export const SITE_RELEASE_CHANNEL = 'site_release';
/** Raised by migration 0019's trigger with the owner's id when one of their video tasks changes. */
export const VIDEO_CHANGE_CHANNEL = 'video_change';
/** NOTIFY channels the app listens on. */
export const NOTIFY_CHANNELS = [USER_CHANGE_CHANNEL, SITE_RELEASE_CHANNEL, VIDEO_CHANGE_CHANNEL];

/**
 * application_name of each kind of connection, so an operator (and the tests) can tell them
 * apart in pg_stat_activity. An application_name in the connection URL takes precedence.
 */
export const APPLICATION_NAMES = {
  /** The pool every query goes through (DATABASE_URL). */
  queries: 'app-queries',
  /** The connection that LISTENs (DATABASE_DIRECT_URL when set). */
  listen: 'app-listen',
  /** Migrations and advisory locks (DATABASE_DIRECT_URL when set). */
  session: 'app-session',
} as const;

/** Cheap reachability probe for /api/health, the same on both adapters. */
export async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

/** Runs raw SQL and returns its rows; both drivers answer `{ rows }`. */
export async function queryRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
