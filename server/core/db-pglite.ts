/**
 * The embedded database: PGlite (PostgreSQL compiled to WebAssembly) in DATA_DIR/db, one process
 * only, in a thread of its own (core/pglite-remote.ts). Loaded by openDatabase only when
 * DATABASE_URL is unset.
 */
import { mkdir } from 'node:fs/promises';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import * as schema from '../db/schema.ts';
import { migrationsFolder, ping, type Database, type Db } from './db-shared.ts';
import { RemotePglite } from './pglite-remote.ts';

/** Opens PGlite at `dataDir` (undefined = in memory). */
export async function openPglite(
  dataDir?: string,
  /** An in-memory database starts as a copy of this dump (`dumpDataDir`), skipping initdb. */
  opts: { loadDataDir?: Blob } = {},
): Promise<Database> {
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const loadDataDir = await opts.loadDataDir?.arrayBuffer();
  const client = new RemotePglite({ dataDir, loadDataDir });
  await client.waitReady;
  // Drizzle uses the part of PGlite's client that RemotePglite has (its header says which).
  const db = drizzlePglite({ client: client as unknown as PGlite, schema }) as unknown as Db;
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
