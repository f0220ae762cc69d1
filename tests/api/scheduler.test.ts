/**
 * Scheduled jobs run once per tick across every instance sharing the database
 * (server/core/scheduler.ts): three instances ask for each tick, one runs it. Driven first by a
 * clock the test moves, then by the real timers of three Fastify instances. The app's own cleanup
 * jobs are claimed the same way.
 */
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryRows, type Database } from '../../server/core/db.ts';
import { openPostgres } from '../../server/core/db-postgres.ts';
import {
  createTickRunner,
  scheduleRepeating,
  type TickOutcome,
} from '../../server/core/scheduler.ts';
import { createTestApp, signInLocal } from '../helpers/app.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../helpers/database.ts';

const HOUR = 60 * 60 * 1000;

function fakeLog() {
  const error = vi.fn();
  return { error, log: { error, debug: vi.fn() } as unknown as FastifyBaseLogger };
}

describe.each(databaseKinds)('scheduled jobs on %s', (kind) => {
  let database: TestDatabase;
  /** One connection pool per instance on PostgreSQL, as separate processes would have. */
  let instances: Database[];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    instances = database.url
      ? [0, 1, 2].map(() => openPostgres(database.url!, 2))
      : [database, database, database];
  });
  afterAll(async () => {
    if (database.url) await Promise.all(instances.map((instance) => instance.close()));
    await database.dispose();
  });

  it('runs each tick exactly once in total across three instances', async () => {
    let clock = Date.UTC(2030, 0, 1, 9, 30);
    const runs: { tick: number; by: number }[] = [];
    const runners = instances.map((instance, by) =>
      createTickRunner({
        db: instance.db,
        log: fakeLog().log,
        job: {
          name: 'test.hourly',
          everyMs: HOUR,
          now: () => clock,
          run: async ({ tick }) => void runs.push({ tick, by }),
          failure: 'test job failed',
        },
      }),
    );
    const firstTick = Math.floor(clock / HOUR);
    for (let hour = 0; hour < 5; hour++) {
      const outcomes = await Promise.all(runners.map((runner) => runner.runDue()));
      expect(outcomes.filter((o) => o === 'ran')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'claimed-elsewhere')).toHaveLength(2);
      // Asked again within the same tick, nobody runs it.
      const again = await Promise.all(runners.map((runner) => runner.runDue()));
      expect(again).toEqual<TickOutcome[]>(['already-seen', 'already-seen', 'already-seen']);
      clock += HOUR;
    }
    expect(runs.map((run) => run.tick)).toEqual([0, 1, 2, 3, 4].map((n) => firstTick + n));

    // An instance that starts later in a tick already run does not run it again.
    const late = createTickRunner({
      db: instances[0]!.db,
      log: fakeLog().log,
      job: {
        name: 'test.hourly',
        everyMs: HOUR,
        now: () => clock - HOUR,
        run: async () => void runs.push({ tick: -1, by: 3 }),
        failure: 'test job failed',
      },
    });
    expect(await late.runDue()).toBe('claimed-elsewhere');
    const [row] = await queryRows<{ tick: string; instance: string }>(
      database.db,
      sql`select tick::text, instance from scheduled_job_runs where name = 'test.hourly'`,
    );
    expect(Number(row!.tick)).toBe(firstTick + 4);
  });

  it('logs a failed run and still runs the next tick', async () => {
    let clock = Date.UTC(2030, 0, 2, 0, 0);
    let calls = 0;
    const logs = instances.map(() => fakeLog());
    const runners = instances.map((instance, i) =>
      createTickRunner({
        db: instance.db,
        log: logs[i]!.log,
        job: {
          name: 'test.flaky',
          everyMs: HOUR,
          now: () => clock,
          run: async () => {
            calls += 1;
            if (calls === 1) throw new Error('provider down');
          },
          failure: 'flaky job failed',
        },
      }),
    );
    const first = await Promise.all(runners.map((runner) => runner.runDue()));
    expect(first.filter((o) => o === 'failed')).toHaveLength(1);
    expect(first.filter((o) => o === 'claimed-elsewhere')).toHaveLength(2);
    const errors = logs.flatMap(({ error }) => error.mock.calls);
    expect(errors).toHaveLength(1);
    expect(errors[0]![1]).toBe('flaky job failed');
    expect((errors[0]![0] as { err: Error }).err.message).toBe('provider down');

    clock += HOUR;
    const second = await Promise.all(runners.map((runner) => runner.runDue()));
    expect(second.filter((o) => o === 'ran')).toHaveLength(1);
    expect(calls).toBe(2);
  });

  it('on real timers, three instances run each tick of a short interval once', async () => {
    const everyMs = 150;
    const runs: number[] = [];
    const apps: FastifyInstance[] = instances.map((instance) => {
      const app = Fastify({ logger: false });
      scheduleRepeating(app, instance.db, {
        name: 'test.timers',
        everyMs,
        run: async ({ tick }) => {
          runs.push(tick);
          // A run that takes a while: the other instances must not take the tick meanwhile.
          await new Promise((resolve) => setTimeout(resolve, 20));
        },
        failure: 'timer job failed',
      });
      return app;
    });
    await Promise.all(apps.map((app) => app.ready()));
    await new Promise((resolve) => setTimeout(resolve, everyMs * 8));
    await Promise.all(apps.map((app) => app.close()));

    expect(new Set(runs).size).toBe(runs.length);
    // Under load a timer may fire late past a whole tick; most ticks still run.
    expect(runs.length).toBeGreaterThanOrEqual(5);
    const rows = await queryRows<{ tick: string }>(
      database.db,
      sql`select tick::text from scheduled_job_runs where name = 'test.timers'`,
    );
    expect(Number(rows[0]!.tick)).toBe(Math.max(...runs));
  });
});

describe.each(databaseKinds)("the app's hourly cleanups on %s", (kind) => {
  it('are claimed when the app is ready and delete dead sessions and links', async () => {
    const t = await createTestApp(kind);
    try {
      const jobs = async () =>
        (
          await queryRows<{ name: string }>(
            t.database.db,
            sql`select name from scheduled_job_runs order by name`,
          )
        ).map((row) => row.name);
      await expect
        .poll(jobs)
        .toEqual(
          expect.arrayContaining(['accounts.dead-credentials-cleanup', 'rate-limit.cleanup']),
        );

      const live = await signInLocal(t.app, 'live@example.com');
      await signInLocal(t.app, 'old@example.com');
      await signInLocal(t.app, 'gone@example.com');
      const db = t.database.db;
      await db.execute(sql`update sessions set expires_at = now() - interval '2 days'
        where user_id in (select id from users where email = 'old@example.com')`);
      await db.execute(sql`update sessions set revoked_at = now() - interval '2 days'
        where user_id in (select id from users where email = 'gone@example.com')`);
      const user = sql`(select id from users where email = 'live@example.com')`;
      await db.execute(sql`insert into password_reset_tokens (user_id, token_hash, expires_at)
        values (${user}, 'dead-reset', now() - interval '25 hours'),
               (${user}, 'live-reset', now() + interval '1 hour')`);
      await db.execute(sql`insert into email_verification_tokens (user_id, token_hash, expires_at)
        values (${user}, 'dead-verify', now() - interval '25 hours'),
               (${user}, 'fresh-expired-verify', now() - interval '1 hour')`);

      expect(await t.app.accounts.deleteDeadCredentials()).toEqual({
        sessions: 2,
        resetTokens: 1,
        verificationTokens: 1,
      });
      const balance = await t.app.inject({
        url: '/api/credits/balance',
        headers: { authorization: `Bearer ${live.token}` },
      });
      expect(balance.statusCode).toBe(200);
      const left = await queryRows<{ token_hash: string }>(
        db,
        sql`select token_hash from password_reset_tokens union all
            select token_hash from email_verification_tokens order by 1`,
      );
      expect(left.map((row) => row.token_hash)).toEqual(['fresh-expired-verify', 'live-reset']);
    } finally {
      await t.close();
    }
  });
});
