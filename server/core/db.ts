/**
 * The database client: PGlite in DATA_DIR/db by default (db-pglite.ts), PostgreSQL through `pg`
 * when DATABASE_URL is set (db-postgres.ts). Both speak the same dialect, so the same drizzle
 * queries and SQL migrations run on either. openDatabase imports only the adapter the
 * configuration names: a start on PGlite never loads `pg`, one on PostgreSQL never loads PGlite.
 */
import path from 'node:path';
import type { Database } from './db-shared.ts';

export {
  LOCK_KEYS,
  queryRows,
  SITE_RELEASE_CHANNEL,
  USER_CHANGE_CHANNEL,
  VIDEO_CHANGE_CHANNEL,
  type Database,
  type Db,
  type DbOrTx,
  type ListenHandlers,
  type Tx,
} from './db-shared.ts';

/**
 * Opens the configured database: PostgreSQL when a URL is given (with DATABASE_DIRECT_URL and
 * DATABASE_NOTIFY from `scale`), else PGlite under dataDir (one process: both settings moot).
 */
export async function openDatabase(opts: {
  databaseUrl: string | null;
  dataDir: string;
  scale?: { databaseDirectUrl: string | null; databaseNotify: 'listen' | 'poll' };
}): Promise<Database> {
  if (opts.databaseUrl) {
    const { openPostgres } = await import('./db-postgres.ts');
    return openPostgres(opts.databaseUrl, 10, {
      directUrl: opts.scale?.databaseDirectUrl ?? null,
      notify: opts.scale?.databaseNotify ?? 'listen',
    });
  }
  const { openPglite } = await import('./db-pglite.ts');
  return openPglite(path.join(opts.dataDir, 'db'));
}
