/**
 * Change notifications behind a transaction-mode pooler (issue 18, item 4), on PostgreSQL only.
 * A pooler hands each transaction whichever server connection is free, so a LISTEN sent through
 * it delivers nothing reliably. With DATABASE_DIRECT_URL every LISTEN (and every session lock)
 * goes to the direct URL and the pooled connections listen to nothing; with DATABASE_NOTIFY=poll
 * nothing listens at all and a revoked session stops working within the cache's bound.
 *
 * The two URLs point at the same server here and are told apart by the application_name each
 * carries, which PostgreSQL shows in pg_stat_activity.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { VIDEO_CHANGE_CHANNEL, LOCK_KEYS, queryRows, type Db } from '../../server/core/db.ts';
import { openPostgres } from '../../server/core/db-postgres.ts';
import { POLL_MAX_AGE_MS } from '../../server/core/user-cache.ts';
import { bearer, signInLocal, testConfig } from '../helpers/app.ts';
import { createPostgresDatabase, type PostgresDatabase } from '../helpers/postgres.ts';

const baseUrl = process.env.TEST_DATABASE_URL;

/** `url` with an application_name of its own (a URL's own name wins over the app's default). */
function named(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('application_name', name);
  return parsed.toString();
}

/** An app that opens its own database from config, as `npm start` does. */
async function startApp(env: Record<string, string>) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'veo3-pooler-'));
  const app = await buildApp(testConfig(dataDir, env), { authRateLimit: 1000, scheduler: false });
  return {
    app,
    async close() {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The channels the pooled connections listen on, asked on `n` of them at once. */
async function pooledChannels(db: Db, n = 3): Promise<string[]> {
  const answers = await Promise.all(
    Array.from({ length: n }, () =>
      queryRows<{ channels: string[] }>(
        db,
        sql`select array(select pg_listening_channels())::text[] as channels, pg_sleep(0.05)`,
      ),
    ),
  );
  return answers.flatMap((rows) => rows.flatMap((row) => row.channels));
}

const balance = (app: FastifyInstance, token: string) =>
  app.inject({ url: '/api/credits/balance', headers: bearer(token) });

/** Polls `read` every 10 ms until `done`, for at most `ms`. */
async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 3000) {
  const until = Date.now() + ms;
  let value = await read();
  while (!done(value) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 10));
    value = await read();
  }
  return value;
}

describe.skipIf(!baseUrl)('change notifications behind a pooler (PostgreSQL)', () => {
  let database: PostgresDatabase;
  let admin: pg.Client;
  /** The backends on the test database: application_name, state and last statement. */
  const backends = async () =>
    (
      await admin.query<{ name: string; query: string }>(
        `select application_name as name, query from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid()`,
      )
    ).rows;

  /**
   * The application_name of each backend of the pooler test whose last statement was a LISTEN
   * (backends of the other tests, possibly still exiting, are left out).
   */
  const listeningNames = async () =>
    (await backends())
      .filter((b) => ['pooled-url', 'direct-url'].includes(b.name) && /^LISTEN /i.test(b.query))
      .map((b) => b.name);

  beforeAll(async () => {
    database = await createPostgresDatabase(baseUrl!, 't_pooler_');
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await database?.drop();
  });

  it('listens on the pooled connections themselves when there is no direct URL', async () => {
    // The control for the next test: the check below does see a pooled LISTEN.
    const plain = openPostgres(database.url, 2);
    try {
      await plain.migrate();
      expect(await pooledChannels(plain.db, 2)).toContain('user_change');
    } finally {
      await plain.close();
    }
  });

  it('with DATABASE_DIRECT_URL, LISTENs and locks only on the direct URL and still delivers', async () => {
    const pooledUrl = named(database.url, 'pooled-url');
    const directUrl = named(database.url, 'direct-url');
    const { app, close } = await startApp({
      DATABASE_URL: pooledUrl,
      DATABASE_DIRECT_URL: directUrl,
    });
    try {
      expect(app.database.changeNotices).toBe('listen');
      // No pooled connection listens; the one that does came through the direct URL.
      expect(await pooledChannels(app.database.db)).toEqual([]);
      // One listening connection for every channel (user_change, video_change, …), not one each.
      expect(await listeningNames()).toEqual(['direct-url']);
      const videoNotices: string[] = [];
      const stopVideo = await app.database.listen(VIDEO_CHANGE_CHANNEL, {
        notify: (payload) => videoNotices.push(payload),
        gap: () => {},
      });
      await admin.query(`select pg_notify('video_change', 'someone')`);
      const heard = await eventually(
        async () => videoNotices,
        (seen) => seen.includes('someone'),
      );
      expect(heard).toContain('someone');
      await stopVideo();
      expect(await listeningNames()).toEqual(['direct-url']);

      // A session lock (site builds, migrations) is held by a direct connection as well.
      const holders = await app.database.exclusive(LOCK_KEYS.siteBuild, async () =>
        queryRows<{ name: string }>(
          app.database.db,
          sql`select a.application_name as name from pg_locks l
                join pg_stat_activity a on a.pid = l.pid
               where l.locktype = 'advisory' and l.objid = ${LOCK_KEYS.siteBuild}`,
        ),
      );
      expect(holders.map((h) => h.name)).toEqual(['direct-url']);

      // Notifications arrive (through the direct connection: no other connection listens).
      const ann = await signInLocal(app, 'ann-direct@example.com');
      expect((await balance(app, ann.token)).json().data.total_credits).toBe(0);
      await admin.query('update users set credits = 9 where id = $1', [ann.user.id]);
      const seen = await eventually(
        async () => (await balance(app, ann.token)).json().data.total_credits,
        (credits) => credits === 9,
      );
      expect(seen).toBe(9);

      // It is the listener: killing it stops the cache until a new direct connection listens.
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and application_name = 'direct-url'`,
      );
      const off = await eventually(
        async () => app.userCache.stats().live,
        (live) => !live,
      );
      expect(off).toBe(false);
      const back = await eventually(
        async () => app.userCache.stats().live,
        (live) => live,
        5000,
      );
      expect(back).toBe(true);
      expect(await listeningNames()).toEqual(['direct-url']);
    } finally {
      await close();
    }
  });

  it(`with DATABASE_NOTIFY=poll, LISTENs nowhere and ends a revoked session within ${POLL_MAX_AGE_MS} ms`, async () => {
    const env = { DATABASE_URL: named(database.url, 'poll-url'), DATABASE_NOTIFY: 'poll' };
    const a = await startApp(env);
    const b = await startApp(env);
    try {
      expect(b.app.database.changeNotices).toBe('poll');
      const ann = await signInLocal(a.app, 'ann-poll@example.com');
      // Instance B caches the session: repeated reads are hits.
      expect((await balance(b.app, ann.token)).statusCode).toBe(200);
      const hitsBefore = b.app.userCache.stats().hits;
      expect((await balance(b.app, ann.token)).statusCode).toBe(200);
      expect(b.app.userCache.stats().hits).toBeGreaterThan(hitsBefore);

      // Nothing listens: no backend's statement was a LISTEN, no pooled connection has a channel.
      const ours = (await backends()).filter((row) => row.name === 'poll-url');
      expect(ours.length).toBeGreaterThan(0);
      expect(ours.filter((row) => /^LISTEN /i.test(row.query))).toEqual([]);
      expect(await pooledChannels(a.app.database.db)).toEqual([]);
      expect(await pooledChannels(b.app.database.db)).toEqual([]);

      const out = await a.app.inject({
        method: 'POST',
        url: '/api/auth/signout',
        headers: bearer(ann.token),
      });
      expect(out.statusCode).toBeLessThan(300);
      const revokedAt = Date.now();
      const refused = await eventually(
        async () => (await balance(b.app, ann.token)).statusCode,
        (status) => status === 401,
        POLL_MAX_AGE_MS * 3,
      );
      expect(refused).toBe(401);
      // Within the bound (plus a request's time): entries are served at most that long.
      expect(Date.now() - revokedAt).toBeLessThan(POLL_MAX_AGE_MS + 500);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
