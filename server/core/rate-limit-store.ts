/**
 * Rate-limit counters in the database (rate_limit_hits) as a @fastify/rate-limit store, so every
 * instance on one database draws on one budget. A hit is one upsert: it starts a new window when
 * the row's has ended, counts otherwise, and returns the count and the time left, so concurrent
 * hits from several instances are counted one after another by the row lock. The same SQL runs on
 * PGlite. Rows whose window ended are deleted by the hourly cleanup (deleteExpiredRateLimitHits).
 */
import type {
  FastifyRateLimitOptions,
  FastifyRateLimitStore,
  FastifyRateLimitStoreCtor,
  RateLimitOptions,
} from '@fastify/rate-limit';
import { sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from './db.ts';

export interface WindowCount {
  /** Hits in the current window, this one included. */
  current: number;
  /** Milliseconds until the window ends. */
  ttl: number;
}

type Callback = (error: Error | null, result?: WindowCount) => void;

/**
 * Counts one hit on `key` in a window of `windowMs` (`units` hits: a batch reserved at once).
 * With `restartWhenOver` (continueExceeding), a hit over `max` starts the window again.
 */
export async function countHit(
  db: DbOrTx,
  key: string,
  windowMs: number,
  opts: { max: number; restartWhenOver: boolean; units?: number },
): Promise<WindowCount> {
  const units = opts.units ?? 1;
  const restart = opts.restartWhenOver
    ? sql`h.reset_at <= now() or h.hits + ${units}::integer > ${opts.max}::integer`
    : sql`h.reset_at <= now()`;
  const [row] = await queryRows<{ hits: number; ttl: number }>(
    db,
    sql`insert into rate_limit_hits as h (key, hits, reset_at)
        values (${key}, ${units}::integer, now() + ${windowMs}::float8 * interval '1 millisecond')
        on conflict (key) do update set
          hits = case when h.reset_at <= now() then excluded.hits else h.hits + excluded.hits end,
          reset_at = case when ${restart} then excluded.reset_at else h.reset_at end
        returning hits, extract(epoch from reset_at - now())::float8 * 1000 as ttl`,
  );
  if (!row) throw new Error(`counting a rate-limit hit on ${key} returned no row`);
  return { current: row.hits, ttl: Math.max(0, Math.ceil(row.ttl)) };
}

/** The current window of `key` without counting a hit ({0, 0} when none is running). */
export async function readWindow(db: DbOrTx, key: string): Promise<WindowCount> {
  const [row] = await queryRows<{ hits: number; ttl: number }>(
    db,
    sql`select hits, extract(epoch from reset_at - now())::float8 * 1000 as ttl
        from rate_limit_hits where key = ${key} and reset_at > now()`,
  );
  return row ? { current: row.hits, ttl: Math.max(0, Math.ceil(row.ttl)) } : { current: 0, ttl: 0 };
}

/** Deletes the counters whose window has ended; returns how many. */
export async function deleteExpiredRateLimitHits(db: DbOrTx): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`with d as (delete from rate_limit_hits where reset_at <= now() returning 1)
        select count(*)::int as n from d`,
  );
  return row?.n ?? 0;
}

/**
 * The store class @fastify/rate-limit instantiates (it passes only the options, so the database
 * comes from this closure). Each route's child counts under its own prefix (method and URL, as
 * the plugin's Redis store does). `onError` sees every failure before the plugin does.
 */
export function databaseRateLimitStore(
  db: DbOrTx,
  onError: (error: unknown) => void,
): FastifyRateLimitStoreCtor {
  const settle = (work: Promise<WindowCount>, callback: Callback) => {
    work.then(
      (result) => callback(null, result),
      (error: unknown) => {
        onError(error);
        callback(error instanceof Error ? error : new Error(String(error)));
      },
    );
  };

  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    readonly #prefix: string;
    readonly #restartWhenOver: boolean;

    constructor(options: FastifyRateLimitOptions, prefix = '') {
      // The plugin passes its merged options (the typings leave the interface empty).
      const { continueExceeding, exponentialBackoff } = options as RateLimitOptions;
      if (exponentialBackoff) {
        throw new Error(
          'The database rate-limit store counts fixed windows: exponentialBackoff is not supported (set REDIS_URL or drop the option).',
        );
      }
      this.#prefix = prefix;
      this.#restartWhenOver = continueExceeding === true;
    }

    incr(key: string, callback: Callback, timeWindow: number, max: number): void {
      const restartWhenOver = this.#restartWhenOver;
      settle(countHit(db, this.#prefix + key, timeWindow, { max, restartWhenOver }), callback);
    }

    read(key: string, callback: Callback): void {
      settle(readWindow(db, this.#prefix + key), callback);
    }

    child(routeOptions: FastifyRateLimitOptions & { routeInfo?: unknown }): FastifyRateLimitStore {
      const route = (routeOptions.routeInfo ?? {}) as { method?: unknown; url?: unknown };
      const prefix = `${this.#prefix}${String(route.method ?? '')} ${String(route.url ?? '')}|`;
      return new DatabaseRateLimitStore(routeOptions, prefix);
    }
  }
  return DatabaseRateLimitStore;
}
