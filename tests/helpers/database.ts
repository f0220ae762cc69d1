/**
 * Test databases: every test file gets a clean one. PGlite runs in memory; with
 * TEST_DATABASE_URL set, the same tests run again on a fresh PostgreSQL database per file.
 */
import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import type { Database } from '../../server/core/db.ts';
import { openPglite } from '../../server/core/db-pglite.ts';
import { openPostgres } from '../../server/core/db-postgres.ts';
import { createPostgresDatabase } from './postgres.ts';

export type DatabaseKind = 'pglite' | 'postgres';

/**
 * Both databases when PostgreSQL is at hand (TEST_DATABASE_URL), else PGlite: for the tests of
 * what differs between them (migrations, indexes, query plans, the embedded database itself).
 */
export const allDatabaseKinds: DatabaseKind[] = process.env.TEST_DATABASE_URL
  ? ['pglite', 'postgres']
  : ['pglite'];

/**
 * The databases every other database test runs on: all of them, unless TEST_DATABASE_KINDS
 * (a comma list) narrows them. CI sets `postgres` (.ci/run): on a two-core machine the second
 * pass on PGlite cost more than a minute, and PGlite still runs there under the browser tests,
 * the resilience suite and the tests above; `npm test` without PostgreSQL runs them on PGlite.
 */
export const databaseKinds: DatabaseKind[] = allDatabaseKinds.filter(
  (kind) =>
    !process.env.TEST_DATABASE_KINDS || process.env.TEST_DATABASE_KINDS.split(',').includes(kind),
);

export interface TestDatabase extends Database {
  /** Closes the database and, on PostgreSQL, drops it. */
  dispose(): Promise<void>;
  /** The connection URL (PostgreSQL only), for child processes. */
  url: string | null;
}

/** A new, migrated, empty database of the given kind. */
export async function createTestDatabase(
  kind: DatabaseKind,
  migrate = true,
): Promise<TestDatabase> {
  if (kind === 'pglite') {
    // A copy of the migrated database the global setup dumped (tests/helpers/global-setup.ts).
    const database = migrate
      ? await openPglite(undefined, { loadDataDir: await migratedSnapshot() })
      : await openPglite();
    return { ...database, url: null, dispose: () => database.close() };
  }
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) throw new Error('TEST_DATABASE_URL is not set');
  // A copy of the database the global setup migrated (tests/helpers/global-setup.ts): a tenth
  // of a second instead of running every migration again.
  const template = migrate ? inject('postgresTemplate') : undefined;
  return openFreshPostgres(baseUrl, `t_${Date.now().toString(36)}_`, { migrate, template });
}

/**
 * A new PostgreSQL database under `baseUrl` (migrated unless told not to), dropped by dispose.
 * With `template`, a copy of that already migrated database.
 */
export async function openFreshPostgres(
  baseUrl: string,
  prefix: string,
  opts: { migrate?: boolean; poolSize?: number; template?: string } = {},
): Promise<TestDatabase> {
  const created = await createPostgresDatabase(baseUrl, prefix, opts.template);
  const database = openPostgres(created.url, opts.poolSize ?? 5);
  if ((opts.migrate ?? true) && !opts.template) await database.migrate();
  return {
    ...database,
    url: created.url,
    async dispose() {
      await database.close();
      await created.drop();
    },
  };
}

let snapshot: Promise<Blob> | null = null;

/** The migrated, empty PGlite dump, read once per test file. */
function migratedSnapshot(): Promise<Blob> {
  snapshot ??= readFile(inject('pgliteSnapshot')).then((bytes) => new Blob([bytes]));
  return snapshot;
}
