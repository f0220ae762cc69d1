/**
 * PostgreSQL through `pg`, when DATABASE_URL is set (openDatabase loads this module only then).
 *
 * Behind a transaction-mode pooler (PgBouncer `pool_mode=transaction`) a connection's session
 * state does not outlive a transaction, so LISTEN and session advisory locks cannot go through
 * it: DATABASE_DIRECT_URL gives those a direct connection (queries keep DATABASE_URL), and
 * DATABASE_NOTIFY=poll issues no LISTEN at all (core/user-cache.ts then caches briefly instead).
 */
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from '../db/schema.ts';
import {
  APPLICATION_NAMES,
  LOCK_KEYS,
  migrationsFolder,
  NOTIFY_CHANNELS,
  ping,
  type Database,
  type Db,
  type ListenHandlers,
} from './db-shared.ts';

/** How a PostgreSQL database is reached besides its pooled URL (ScaleConfig's two settings). */
export interface PostgresOptions {
  /** DATABASE_DIRECT_URL: LISTEN, migrations and advisory locks go here; null: the pooled URL. */
  directUrl?: string | null;
  /** DATABASE_NOTIFY: 'poll' issues no LISTEN on any connection. */
  notify?: 'listen' | 'poll';
}

/**
 * Opens a PostgreSQL pool of `max` connections on `url`. See PostgresOptions for a pooled `url`
 * (a transaction-mode pooler) and a direct one.
 */
export function openPostgres(url: string, max = 10, opts: PostgresOptions = {}): Database {
  const notify = opts.notify ?? 'listen';
  const directUrl = opts.directUrl || null;
  // Without a direct URL every pooled connection LISTENs too: PostgreSQL hands a session its own
  // notifications before its COMMIT returns, so a write made through this pool reaches this
  // process's listeners before the code that wrote it goes on (read-your-writes for the caches).
  // Through a pooler that session is not ours to keep: with a direct URL only the direct
  // connection listens, and this process sees its own writes as it sees another's (shortly).
  const listenOnPool = notify === 'listen' && !directUrl;
  const listeners = new Map<string, Set<ListenHandlers>>();
  const dedicated = sharedListener(directUrl ?? url);
  const deliver = (channel: string, payload: string) => {
    for (const handlers of listeners.get(channel) ?? []) handlers.notify(payload);
  };
  const pool = new pg.Pool({
    connectionString: url,
    application_name: APPLICATION_NAMES.queries,
    // At least two: migrations run on one connection while another holds their lock.
    max: Math.max(2, max),
    Client: listenOnPool ? listeningClient(deliver) : pg.Client,
  });
  // An idle client that errors (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;

  /** A new connection to the direct URL (migrations, locks); the caller ends it. */
  const connectDirect = async (direct: string): Promise<pg.Client> => {
    const client = new pg.Client({
      connectionString: direct,
      application_name: APPLICATION_NAMES.session,
    });
    client.on('error', () => {});
    await client.connect();
    return client;
  };

  /** A connection whose session is ours for as long as we hold it: direct, else pooled. */
  const sessionConnection = async (): Promise<{
    client: pg.ClientBase;
    release(broken: boolean): Promise<void>;
  }> => {
    if (!directUrl) {
      const client = await pool.connect();
      return { client, release: async (broken) => client.release(broken) };
    }
    const client = await connectDirect(directUrl);
    return { client, release: () => client.end().catch(() => {}) };
  };

  /**
   * Runs `fn` while a connection of its own holds advisory lock `key` in an open transaction: a
   * transaction keeps its server connection even through a transaction pooler (a session lock
   * taken there could be released on another connection, or never), and the lock dies with the
   * connection, so a killed holder never blocks the others.
   */
  const withLock = async <T>(key: number, fn: () => Promise<T>): Promise<T> => {
    const { client, release } = await sessionConnection();
    let broken = false;
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [key]);
      return await fn();
    } finally {
      await client.query('COMMIT').catch(() => (broken = true));
      await release(broken);
    }
  };

  return {
    db,
    kind: 'postgres',
    changeNotices: notify,
    migrate: () =>
      withLock(LOCK_KEYS.migrate, async () => {
        // DDL goes to the server directly when it can (a pooler may not pass everything through).
        if (!directUrl) return migratePg(db as never, { migrationsFolder });
        const client = await connectDirect(directUrl);
        try {
          await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
        } finally {
          await client.end().catch(() => {});
        }
      }),
    ping: () => ping(db),
    exclusive: withLock,
    async listen(channel, handlers) {
      if (!NOTIFY_CHANNELS.includes(channel)) throw new Error(`Unknown channel ${channel}`);
      if (notify === 'poll') {
        throw new Error('DATABASE_NOTIFY=poll: this process issues no LISTEN; poll instead.');
      }
      let set = listeners.get(channel);
      if (!set) listeners.set(channel, (set = new Set()));
      set.add(handlers);
      // Its own connection as well: the pool may hold no connection at all when idle, and a
      // lost connection must be noticed (a gap) rather than silently missing notifications.
      // One such connection per process, whatever the number of caches and channels.
      const stop = await dedicated.add(channel, handlers);
      return async () => {
        set.delete(handlers);
        await stop();
      };
    },
    close: () => pool.end(),
  };
}

/**
 * A pg.Client that LISTENs on NOTIFY_CHANNELS as soon as it connects, before the pool hands it
 * out (pg-pool calls connect with a callback and uses the client when it fires).
 */
function listeningClient(deliver: (channel: string, payload: string) => void) {
  return class ListeningClient extends pg.Client {
    override connect(): Promise<pg.Client>;
    override connect(callback: (err: Error | null, client?: pg.Client) => void): void;
    override connect(
      callback?: (err: Error | null, client?: pg.Client) => void,
    ): Promise<pg.Client> | void {
      const ready = super.connect().then(async () => {
        this.on('notification', (message) => deliver(message.channel, message.payload ?? ''));
        await this.query(LISTEN_ALL);
        return this as pg.Client;
      });
      if (!callback) return ready;
      ready.then(
        (client) => callback(null, client),
        (err: Error) => callback(err),
      );
    }
  };
}

/** LISTEN on every channel the app listens on, as one statement. */
const LISTEN_ALL = NOTIFY_CHANNELS.map((c) => `LISTEN ${pg.escapeIdentifier(c)}`).join('; ');

/**
 * One listening connection (listenPostgres, on every channel of NOTIFY_CHANNELS) for every
 * subscriber of every channel: each hears its channel's notifications and every gap; one that
 * joins while it listens is told so at once. The connection opens with the first subscriber and
 * closes with the last, so a process holds one such connection whatever it caches.
 */
function sharedListener(url: string) {
  const subscribers = new Map<string, Set<ListenHandlers>>();
  const everyone = () => [...subscribers.values()].flatMap((set) => [...set]);
  let listening = false;
  let started: Promise<() => Promise<void>> | null = null;
  const fanOut: ChannelHandlers = {
    notify: (channel, payload) => subscribers.get(channel)?.forEach((h) => h.notify(payload)),
    gap(live) {
      listening = live;
      everyone().forEach((h) => h.gap(live));
    },
  };
  return {
    async add(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>> {
      let set = subscribers.get(channel);
      if (!set) subscribers.set(channel, (set = new Set()));
      set.add(handlers);
      if (started) {
        await started;
        if (listening) handlers.gap(true);
      } else {
        started = listenPostgres(url, fanOut);
        await started;
      }
      return async () => {
        set.delete(handlers);
        if (everyone().length > 0 || !started) return;
        const stop = await started;
        started = null;
        listening = false;
        await stop();
      };
    },
  };
}

interface ChannelHandlers {
  notify(channel: string, payload: string): void;
  gap(listening: boolean): void;
}

/**
 * LISTEN on a connection of its own (a pooled one would be handed to other queries). A lost
 * connection is reported as a gap and retried every second until it listens again.
 */
async function listenPostgres(
  url: string,
  handlers: ChannelHandlers,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({
      connectionString: url,
      application_name: APPLICATION_NAMES.listen,
    });
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      next.removeAllListeners('notification');
      void next.end().catch(() => {});
      if (client === next) client = null;
      if (stopped) return;
      handlers.gap(false);
      retry = setTimeout(() => void connect().catch(onLost), 1000);
      retry.unref();
    };
    next.on('error', onLost);
    next.on('end', onLost);
    next.on('notification', (message) => handlers.notify(message.channel, message.payload ?? ''));
    try {
      await next.connect();
      await next.query(LISTEN_ALL);
    } catch (err) {
      onLost();
      throw err;
    }
    if (stopped) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    handlers.gap(true);
  };
  await connect().catch(() => {
    // Already reported as a gap and retrying: the caches stay off until it listens.
  });
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    const current = client;
    client = null;
    if (current) {
      current.removeAllListeners();
      current.on('error', () => {});
      await current.end().catch(() => {});
    }
  };
}
