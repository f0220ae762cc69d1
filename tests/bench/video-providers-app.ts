/**
 * The app and database for one run of the `video` bench section. createTestApp cannot be used
 * here: its PGlite starts from a dump vitest's global setup makes (`inject`), and the bench is a
 * plain Node script. So the database is opened and migrated here, and the app built on it as
 * tests build theirs (buildTestApp).
 */
import { openPglite } from '../../server/core/db-pglite.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { openFreshPostgres, type DatabaseKind, type TestDatabase } from '../helpers/database.ts';

/** A fresh migrated database; on PostgreSQL one created for this run and dropped after it. */
export async function openBenchDatabase(
  kind: DatabaseKind,
  pgUrl: string | null,
): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const database = await openPglite();
    await database.migrate();
    return { ...database, url: null, dispose: () => database.close() };
  }
  return openFreshPostgres(pgUrl!, 'bench_video_', { poolSize: 10 });
}

/** The app as tests build it, on a database this script opened itself. */
export function benchApp(database: TestDatabase, env: Record<string, string>): Promise<TestApp> {
  // 50 simulated customers sign in from one address within seconds.
  return buildTestApp(database, { env, deps: { authRateLimit: 100_000 } });
}
