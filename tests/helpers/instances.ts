/**
 * Two app instances on one test database, as two machines would run (each with its own
 * connection pool on PostgreSQL; PGlite's one client shared), and whether the machine's Redis
 * answers: the set-up of every test about what several instances share (rate limits, a key's
 * budget).
 */
import { Redis } from 'ioredis';
import type { AppDeps } from '../../server/app-deps.ts';
import { openPostgres } from '../../server/core/db-postgres.ts';
import { buildTestApp, type TestApp } from './app.ts';
import type { TestDatabase } from './database.ts';

export const REDIS_URL = 'redis://127.0.0.1:6379';

/** Whether the Redis at `url` answers (the Redis cases are skipped, saying so, when not). */
export async function redisAnswers(url = REDIS_URL): Promise<boolean> {
  const probe = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
  });
  probe.on('error', () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/** Two instances on `database` with the same env and deps; closing them leaves the database. */
export async function twoInstances(
  database: TestDatabase,
  opts: { env?: Record<string, string>; deps?: Omit<AppDeps, 'database'> } = {},
): Promise<{ a: TestApp; b: TestApp; close(): Promise<void> }> {
  const keep = { ...database, dispose: async () => {} };
  const second = database.url
    ? { ...openPostgres(database.url, 2), url: database.url }
    : { ...database };
  const a = await buildTestApp(keep, opts);
  const b = await buildTestApp(
    { ...second, dispose: () => (database.url ? second.close() : Promise.resolve()) },
    opts,
  );
  return {
    a,
    b,
    async close() {
      await a.close();
      await b.close();
    },
  };
}
