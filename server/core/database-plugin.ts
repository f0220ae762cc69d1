/**
 * The app's database and the user cache beside it, as `app.database` and `app.userCache`. The
 * app opens and migrates the database itself unless one is passed in (tests); the embedded
 * database is locked for this process first and closed with the app. The database is opened
 * with DATABASE_DIRECT_URL and DATABASE_NOTIFY (core/db.ts), and `app.database.db` is a view
 * whose transactions count what they wrote into the app's metrics once they commit
 * (core/after-commit.ts).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ConfigError, type Config } from '../config.ts';
import { countingCommits } from './after-commit.ts';
import type { SessionAndUser } from './auth.ts';
import { openDatabase, type Database } from './db.ts';
import type { Metrics } from './metrics.ts';
import {
  acquireEmbeddedLock,
  EmbeddedDatabaseInUseError,
  lockHolderName,
} from './embedded-lock.ts';
import { createUserCache, type UserCache } from './user-cache.ts';

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
    userCache: UserCache<SessionAndUser>;
  }
}

export const databasePlugin = fp(
  async (
    app: FastifyInstance,
    opts: {
      config: Config;
      /** Passed in: neither migrated nor closed here. */ database?: Database;
      /** Where committed ledger changes are counted (the metrics plugin serves them). */
      metrics: Metrics;
    },
  ) => {
    const { config } = opts;
    // PGlite takes no lock itself: one process per DATA_DIR/db (the admin CLI checks this lock).
    const embeddedLock =
      !opts.database && !config.databaseUrl ? await lockEmbeddedDatabase(config.dataDir) : null;
    const opened = opts.database ?? (await openDatabase(config));
    if (!opts.database) await opened.migrate();
    // A view per app: two apps on one database (tests) count into their own metrics.
    const database: Database = { ...opened, db: countingCommits(opened.db, opts.metrics) };

    app.decorate('database', database);
    if (!opts.database) app.addHook('onClose', () => database.close());
    if (embeddedLock) {
      app.addHook('onListen', async () => {
        const address = app.server.address();
        if (address && typeof address === 'object') await embeddedLock.setPort(address.port);
      });
      app.addHook('onClose', () => embeddedLock.release());
    }

    // Sessions and newest ledger rows in memory, dropped by the database's own change notices
    // (or, with DATABASE_NOTIFY=poll, kept for at most POLL_MAX_AGE_MS).
    const userCache = await createUserCache<SessionAndUser>(database, {
      changeNotices: database.changeNotices,
    });
    app.addHook('onClose', () => userCache.stop().catch(() => {}));
    app.decorate('userCache', userCache);
  },
  { name: 'database' },
);

async function lockEmbeddedDatabase(dataDir: string) {
  try {
    return await acquireEmbeddedLock(dataDir, 'server');
  } catch (error) {
    if (!(error instanceof EmbeddedDatabaseInUseError)) throw error;
    const who =
      error.holder.owner === 'server' ? 'another server' : lockHolderName(error.holder.owner);
    throw new ConfigError(
      `The embedded database in ${dataDir} is in use by ${who} (pid ${error.holder.pid}). Stop it, or use another DATA_DIR.`,
    );
  }
}
