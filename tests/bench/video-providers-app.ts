/**
 * The app and database for one run of the `video` bench section. createTestApp cannot be used
 * here: its PGlite starts from a dump vitest's global setup makes (`inject`), and the bench is a
 * plain Node script. So the database is opened and migrated here, and the app built as
 * createTestApp builds it (testConfig, no scheduler).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/app.ts';
import { openPglite, openPostgres } from '../../server/core/db.ts';
import { testConfig, type TestApp } from '../helpers/app.ts';
import type { DatabaseKind, TestDatabase } from '../helpers/database.ts';
import { createPostgresDatabase } from '../helpers/postgres.ts';

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
  const created = await createPostgresDatabase(pgUrl!, 'bench_video_');
  const database = openPostgres(created.url, 10);
  await database.migrate();
  return {
    ...database,
    url: created.url,
    async dispose() {
      await database.close();
      await created.drop();
    },
  };
}

/** The app as tests build it (createTestApp), on a database this script opens itself. */
export async function benchApp(
  database: TestDatabase,
  env: Record<string, string>,
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'veo3-bench-video-'));
  const config = testConfig(dataDir, env);
  let app;
  try {
    app = await buildApp(config, { authRateLimit: 100_000, scheduler: false, database });
  } catch (error) {
    await database.dispose();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    app,
    config,
    database,
    dataDir,
    async close() {
      await app.close();
      await database.dispose();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
