/**
 * Rate limits shared by several instances (server/core/rate-limit.ts): two apps on one database
 * grant one sign-in budget between them, counted in the database by default and in Redis with
 * REDIS_URL; when the store fails, limited routes answer without a limit and the failure is logged.
 */
import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import {
  countHit,
  databaseRateLimitStore,
  deleteExpiredRateLimitHits,
  readWindow,
} from '../../server/core/rate-limit-store.ts';
import type { TestApp } from '../helpers/app.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../helpers/database.ts';
import { captureLogLines } from '../helpers/logs.ts';
import { REDIS_URL, redisAnswers, twoInstances } from '../helpers/instances.ts';

const LIMIT = 3;

const redisReachable = await redisAnswers(REDIS_URL);
if (!redisReachable) console.warn(`rate-limit-shared: no Redis answers at ${REDIS_URL}`);

/** A client address of its own per run, so runs sharing one Redis never share a counter. */
const randomAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/**
 * Two app instances on `database`, sign-ins limited to LIMIT a minute (and their log lines to
 * `logStream` when given).
 */
function limitedInstances(
  database: TestDatabase,
  opts: { env?: Record<string, string>; logStream?: NodeJS.WritableStream } = {},
) {
  const deps = { authRateLimit: LIMIT, ...(opts.logStream ? { logStream: opts.logStream } : {}) };
  const env = { ...opts.env, ...(opts.logStream ? { LOG_LEVEL: 'error' } : {}) };
  return twoInstances(database, { env, deps });
}

const signIn = (t: TestApp, address: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/local',
    payload: { name: 'Ann', email: 'ann@example.com' },
    remoteAddress: address,
  });

/** LIMIT sign-ins spread over both instances pass; the next one, on either, is refused. */
async function expectOneBudget(a: TestApp, b: TestApp, address: string) {
  const allowed = [await signIn(a, address), await signIn(b, address), await signIn(a, address)];
  expect(allowed.map((res) => res.statusCode)).toEqual([200, 200, 200]);

  const refused = await signIn(b, address);
  expect(refused.statusCode).toBe(429);
  expect(refused.json()).toEqual({
    success: false,
    code: 'RATE_LIMITED',
    message: expect.stringMatching(
      /^Too many attempts\. Please wait \d+ (seconds?|minute) and try again\.$/,
    ),
  });
  const wait = Number(refused.headers['retry-after']);
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(60);
  expect((await signIn(a, address)).statusCode).toBe(429);

  // The budget is per client: another address still signs in.
  expect((await signIn(b, randomAddress())).statusCode).toBe(200);
}

describe.each(databaseKinds)('rate limits shared through the database on %s', (kind) => {
  let database: TestDatabase;
  let instances: Awaited<ReturnType<typeof twoInstances>>;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    instances = await limitedInstances(database);
  });
  afterAll(async () => {
    await instances.close();
    await database.dispose();
  });

  it('grants one budget across two instances: the 4th sign-in, on either, gets 429', async () => {
    const address = randomAddress();
    await expectOneBudget(instances.a, instances.b, address);
    const rows = await queryRows<{ key: string; hits: number }>(
      database.db,
      sql`select key, hits from rate_limit_hits where key like ${`%|${address}`}`,
    );
    expect(rows).toEqual([{ key: `POST /api/auth/local|${address}`, hits: LIMIT + 2 }]);
  });

  it('starts a new window once the old one ends, and the cleanup deletes ended ones', async () => {
    const address = randomAddress();
    for (let i = 0; i <= LIMIT; i++) await signIn(instances.a, address);
    expect((await signIn(instances.b, address)).statusCode).toBe(429);
    await database.db.execute(
      sql`update rate_limit_hits set reset_at = now() - interval '1 second' where key like ${`%|${address}`}`,
    );
    expect((await signIn(instances.b, address)).statusCode).toBe(200);

    const other = randomAddress();
    await signIn(instances.a, other);
    await database.db.execute(
      sql`update rate_limit_hits set reset_at = now() - interval '1 second' where key like ${`%|${other}`}`,
    );
    expect(await deleteExpiredRateLimitHits(database.db)).toBe(1);
    const left = await queryRows<{ key: string }>(
      database.db,
      sql`select key from rate_limit_hits`,
    );
    expect(left.map((row) => row.key)).not.toContain(`POST /api/auth/local|${other}`);
    expect(left.map((row) => row.key)).toContain(`POST /api/auth/local|${address}`);
  });
});

describe.each(databaseKinds)('the database store on %s', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.dispose());

  it('counts hits in one window, reads without counting, restarts when asked (continueExceeding)', async () => {
    const db = database.db;
    const fixed = { max: 2, restartWhenOver: false };
    const counts = [];
    for (let i = 0; i < 3; i++) counts.push(await countHit(db, 'k1', 60_000, fixed));
    expect(counts.map((c) => c.current)).toEqual([1, 2, 3]);
    expect(counts.every((c) => c.ttl > 55_000 && c.ttl <= 60_000)).toBe(true);
    expect((await readWindow(db, 'k1')).current).toBe(3);
    expect((await readWindow(db, 'k1')).current).toBe(3);
    expect(await readWindow(db, 'unknown')).toEqual({ current: 0, ttl: 0 });

    await db.execute(sql`update rate_limit_hits set reset_at = now() + interval '5 seconds'`);
    expect((await countHit(db, 'k1', 60_000, fixed)).ttl).toBeLessThanOrEqual(5_000);
    const restarted = await countHit(db, 'k1', 60_000, { max: 2, restartWhenOver: true });
    expect(restarted.current).toBe(5);
    expect(restarted.ttl).toBeGreaterThan(55_000);
  });

  it('refuses exponentialBackoff, which it does not implement', () => {
    const Store = databaseRateLimitStore(database.db, () => {});
    expect(() => new Store({ exponentialBackoff: true } as never)).toThrow(/exponentialBackoff/);
  });
});

describe.each(databaseKinds)('when the rate-limit store fails, on %s', (kind) => {
  it('lets sign-ins through and logs the failure (database store)', async () => {
    const database = await createTestDatabase(kind);
    const { stream, lines } = captureLogLines();
    const instances = await limitedInstances(database, { logStream: stream });
    try {
      await database.db.execute(sql`drop table rate_limit_hits`);
      const address = randomAddress();
      const statuses = [];
      for (let i = 0; i < LIMIT + 2; i++)
        statuses.push((await signIn(instances.a, address)).statusCode);
      expect(statuses).toEqual(Array(LIMIT + 2).fill(200));
      // Logged once, not once per request.
      const logged = lines.filter((line) => line.includes('rate-limit store failed'));
      expect(logged).toHaveLength(1);
      expect(logged[0]).toContain('rate_limit_hits');
    } finally {
      await instances.close();
      await database.dispose();
    }
  });
});

describe('when Redis is down (REDIS_URL to a closed port)', () => {
  it('starts, lets sign-ins through and says so in the log', async () => {
    const database = await createTestDatabase('pglite');
    const { stream, lines } = captureLogLines();
    const instances = await limitedInstances(database, {
      env: { REDIS_URL: 'redis://127.0.0.1:1' },
      logStream: stream,
    });
    try {
      const address = randomAddress();
      const statuses = [];
      for (let i = 0; i < LIMIT + 2; i++)
        statuses.push((await signIn(instances.b, address)).statusCode);
      expect(statuses).toEqual(Array(LIMIT + 2).fill(200));
      expect(lines.some((line) => line.includes('Redis at REDIS_URL does not answer'))).toBe(true);
      expect(lines.some((line) => line.includes('rate-limit store failed'))).toBe(true);
    } finally {
      await instances.close();
      await database.dispose();
    }
  });
});

describe.skipIf(!redisReachable)(
  `rate limits shared through Redis (${redisReachable ? REDIS_URL : `skipped: no Redis answers at ${REDIS_URL}`})`,
  () => {
    let database: TestDatabase;
    let instances: Awaited<ReturnType<typeof twoInstances>>;
    let redis: Redis;
    const address = randomAddress();
    beforeAll(async () => {
      database = await createTestDatabase('pglite');
      instances = await limitedInstances(database, { env: { REDIS_URL } });
      redis = new Redis(REDIS_URL);
    });
    afterAll(async () => {
      await instances.close();
      await database.dispose();
      const keys = await redis.keys(`rate-limit:*${address}`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    });

    it('grants one budget across two instances, counted in Redis', async () => {
      await expectOneBudget(instances.a, instances.b, address);
      expect(await redis.get(`rate-limit:POST/api/auth/local-${address}`)).toBe(String(LIMIT + 2));
      // Nothing was counted in the database.
      const rows = await queryRows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from rate_limit_hits`,
      );
      expect(rows[0]!.n).toBe(0);
    });
  },
);
