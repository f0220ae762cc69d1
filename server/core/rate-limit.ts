/**
 * Per-route rate limits: nothing is limited unless a route asks (`config: { rateLimit }`), and a
 * refusal answers in the API's error shape with the wait it needs. The counts are shared by every
 * instance: in the database (rate-limit-store.ts) by default, in Redis when REDIS_URL is set.
 * A client is its IPv4 address or its IPv6 /64 (rate-limit-key.ts).
 *
 * When the store fails (database or Redis unreachable), requests are let through and the failure
 * is logged (at most once a minute): the limited routes are sign-in, password and view-count
 * routes, and refusing every sign-in during a store outage would lock everyone out, while letting
 * them through for a while only loosens a brute-force guard that the admin sign-in backs with its
 * own lockout. Expired database counters are deleted hourly, on one instance.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import fp from 'fastify-plugin';
import type { Db } from './db.ts';
import { AppError } from './errors.ts';
import { rateLimitKey } from './rate-limit-key.ts';
import { closeRateLimitRedis, connectRateLimitRedis } from './rate-limit-redis.ts';
import {
  countHit,
  databaseRateLimitStore,
  deleteExpiredRateLimitHits,
  type WindowCount,
} from './rate-limit-store.ts';
import { scheduleRepeating } from './scheduler.ts';
import { type MessageValue, msg } from './api-messages.ts';

const STORE_ERROR_LOG_EVERY_MS = 60_000;

/** The units @fastify/rate-limit names its wait in ("30 seconds", "1 minute"; @lukeed/ms). */
const WAIT_UNITS = {
  ms: (count: number) => msg('time.ms', { count }),
  second: (count: number) => msg('time.second', { count }),
  minute: (count: number) => msg('time.minute', { count }),
  hour: (count: number) => msg('time.hour', { count }),
  day: (count: number) => msg('time.day', { count }),
  year: (count: number) => msg('time.year', { count }),
} as const;

/**
 * The library's wait ("30 seconds") as a message in the reader's language; a form it does not
 * write today stays as it is.
 */
function waitText(after: string): MessageValue {
  const match = /^(\d+) (ms|second|minute|hour|day|year)s?$/.exec(after);
  if (!match) return after;
  return WAIT_UNITS[match[2] as keyof typeof WAIT_UNITS](Number(match[1]));
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Adds `units` hits to `key`'s fixed window of `windowMs` in the shared store (the database,
     * or Redis) and answers the window's count and time left; null when the store failed (the
     * caller lets the request through). For limits a route counts itself (the /v1 key budget).
     */
    countRateUnits(key: string, units: number, windowMs: number): Promise<WindowCount | null>;
  }
}

/** INCRBY with the window's expiry set by the hit that opens it, in one round trip. */
const REDIS_COUNT = `local current = redis.call('INCRBY', KEYS[1], ARGV[1])
if current == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) ttl = tonumber(ARGV[2]) end
return {current, ttl}`;

async function countUnitsInRedis(
  redis: Redis,
  key: string,
  units: number,
  windowMs: number,
): Promise<WindowCount> {
  const [current, ttl] = (await redis.eval(REDIS_COUNT, 1, key, units, windowMs)) as [
    number,
    number,
  ];
  return { current, ttl };
}

export const rateLimitPlugin = fp(
  async (
    app: FastifyInstance,
    opts: {
      db: Db;
      /** Set: counts live in this Redis (config.scale.redisUrl); null: in the database. */
      redisUrl: string | null;
    },
  ) => {
    let lastLogged = 0;
    let unlogged = 0;
    const storeFailed = (err: unknown) => {
      const now = Date.now();
      if (now - lastLogged < STORE_ERROR_LOG_EVERY_MS) {
        unlogged += 1;
        return;
      }
      app.log.error(
        { err, failuresNotLogged: unlogged, store: opts.redisUrl ? 'redis' : 'database' },
        'rate-limit store failed: limited routes answer without a limit until it works again',
      );
      lastLogged = now;
      unlogged = 0;
    };

    let storeOptions;
    let count: (key: string, units: number, windowMs: number) => Promise<WindowCount>;
    if (opts.redisUrl) {
      const redis = await connectRateLimitRedis(opts.redisUrl, app.log, storeFailed);
      app.addHook('onClose', () => closeRateLimitRedis(redis));
      storeOptions = { redis, nameSpace: 'rate-limit:' };
      count = (key, units, windowMs) =>
        countUnitsInRedis(redis, `rate-limit:${key}`, units, windowMs);
    } else {
      storeOptions = { store: databaseRateLimitStore(opts.db, storeFailed) };
      count = (key, units, windowMs) =>
        countHit(opts.db, key, windowMs, { max: 0, restartWhenOver: false, units });
    }
    app.decorate('countRateUnits', async (key: string, units: number, windowMs: number) => {
      try {
        return await count(key, units, windowMs);
      } catch (err) {
        // Fail open, as every limited route does (see above).
        storeFailed(err);
        return null;
      }
    });

    await app.register(rateLimit, {
      global: false,
      // Fail open (see above); storeFailed has logged the error.
      skipOnError: true,
      ...storeOptions,
      // Ours, not the plugin's default: the /64 rule is ours to keep, whatever the plugin does.
      keyGenerator: (request) => rateLimitKey(request.ip),
      errorResponseBuilder: (_request, context) =>
        new AppError(
          429,
          'RATE_LIMITED',
          msg('rate_limit.too_many_attempts', { after: waitText(context.after) }),
        ),
    });

    // Runs with Redis too: it empties the table of counters left from before REDIS_URL was set.
    scheduleRepeating(app, opts.db, {
      name: 'rate-limit.cleanup',
      everyMs: 60 * 60 * 1000,
      run: () => deleteExpiredRateLimitHits(opts.db),
      failure: 'deleting expired rate-limit counters failed',
    });
  },
  { name: 'rate-limit', dependencies: ['errors', 'database'] },
);
