/**
 * The embedded database: PGlite (PostgreSQL compiled to WebAssembly) in DATA_DIR/db, one process
 * only. Loaded by openDatabase only when DATABASE_URL is unset.
 */
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import * as schema from '../db/schema.ts';
import { migrationsFolder, ping, type Database, type Db } from './db-shared.ts';

/** Opens PGlite at `dataDir` (undefined = in memory). */
export async function openPglite(
  dataDir?: string,
  /** An in-memory database starts as a copy of this dump (`dumpDataDir`), skipping initdb. */
  opts: { loadDataDir?: Blob } = {},
): Promise<Database> {
  if (dataDir) await mkdir(dataDir, { recursive: true });
  // pg_trgm backs the admin's search by part of an email (migration 0011's trigram index).
  const extensions = { pg_trgm };
  const options = opts.loadDataDir ? { loadDataDir: opts.loadDataDir, extensions } : { extensions };
  const client = dataDir ? new PGlite(dataDir, options) : new PGlite(options);
  await client.waitReady;
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    // One process only: its notifications never cross a pooler.
    changeNotices: 'listen',
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    ping: () => ping(db),
    exclusive: (_key, fn) => fn(),
    async listen(channel, handlers) {
      const stop = await client.listen(channel, handlers.notify);
      handlers.gap(true);
      return () => stop();
    },
    dump: () => client.dumpDataDir('none'),
    close: () => client.close(),
  };
}
