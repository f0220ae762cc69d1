/**
 * Issue 36: `Idempotency-Key` on /v1 POSTs, on PGlite and PostgreSQL, with two app instances on
 * one database (each with its own pool on PostgreSQL, as two machines). One key with one body is
 * one task and one charge however many times and wherever it is sent; another body is 422; a
 * request in flight is 409; an error answer frees the key; a crashed request's key is taken over
 * once its lock runs out; expired keys are forgotten.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import { openPostgres } from '../../server/core/db-postgres.ts';
import { createIdempotency } from '../../server/domains/api/idempotency.ts';
import { IDEMPOTENCY_KEY_MAX } from '../../shared/public-api.ts';
import { buildTestApp, signInLocal, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../helpers/database.ts';
import { grantCredits } from '../helpers/video.ts';

describe.each(databaseKinds)('Idempotency-Key on %s', (kind) => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const second = database.url ? openPostgres(database.url, 4) : database;
    a = await buildTestApp({ ...database, dispose: async () => {} });
    b = await buildTestApp({
      ...second,
      url: database.url,
      dispose: () => (database.url ? second.close() : Promise.resolve()),
    });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.dispose();
  });

  let n = 0;
  async function developer(credits: number) {
    const session = await signInLocal(a.app, `idem-${kind}-${++n}@example.com`);
    if (credits > 0) await grantCredits(a, session.user.id, credits);
    const created = await a.app.apiKeys.create(session.user.id, {
      name: 'idem',
      scopes: ['videos:write', 'videos:read'],
    });
    return { userId: session.user.id, key: created.key, apiKeyId: created.id };
  }
  const post = (
    t: TestApp,
    key: string,
    idempotencyKey: string | null,
    payload: Record<string, unknown>,
    url = '/v1/videos',
  ) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: {
        authorization: `Bearer ${key}`,
        ...(idempotencyKey !== null && { 'idempotency-key': idempotencyKey }),
      },
      payload,
    });
  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(database.db, query);
  const charges = async (userId: string) =>
    (
      await rows<{ n: number }>(
        sql`select count(*)::int as n from credit_transactions
            where user_id = ${userId} and source_type = 'video_task'`,
      )
    )[0]!.n;
  const tasks = async (userId: string) =>
    (
      await rows<{ n: number }>(
        sql`select count(*)::int as n from video_tasks where user_id = ${userId}`,
      )
    )[0]!.n;
  /** Waits until the key's request has stored its answer (a condition, not a sleep). */
  async function answered(apiKeyId: string, key: string) {
    for (let i = 0; i < 500; i += 1) {
      const [row] = await rows<{ status: string }>(
        sql`select status from idempotency_keys where api_key_id = ${apiKeyId} and key = ${key}`,
      );
      if (row?.status === 'done') return;
      await new Promise((resolve) => setImmediate(resolve));
    }
    throw new Error('the first request never stored its answer');
  }

  it('20 parallel POSTs on two instances: one task, one charge, the same answer 20 times', async () => {
    const dev = await developer(100);
    const body = { prompt: 'twenty at once', metadata: { run: '1' } };
    const first = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(i % 2 ? b : a, dev.key, 'order-1', body)),
    );
    expect(first.every((res) => [202, 409].includes(res.statusCode))).toBe(true);
    for (const res of first.filter((r) => r.statusCode === 409)) {
      expect(res.json().error.code).toBe('IDEMPOTENCY_REQUEST_IN_PROGRESS');
      expect(res.headers['retry-after']).toBe('1');
    }
    // A client retries its 409s after a moment: by then the first request has answered.
    await answered(dev.apiKeyId, 'order-1');
    const final = await Promise.all(
      first.map((res, i) =>
        res.statusCode === 409 ? post(i % 2 ? b : a, dev.key, 'order-1', body) : res,
      ),
    );
    expect(final.map((res) => res.statusCode)).toEqual(Array(20).fill(202));
    const fresh = final.filter((res) => res.headers['idempotent-replayed'] === undefined);
    expect(fresh).toHaveLength(1);
    expect(final.filter((res) => res.headers['idempotent-replayed'] === 'true')).toHaveLength(19);
    expect(new Set(final.map((res) => res.body)).size).toBe(1);
    expect(await tasks(dev.userId)).toBe(1);
    expect(await charges(dev.userId)).toBe(1);
    expect(
      (await rows<{ credits: number }>(sql`select credits from users where id = ${dev.userId}`))[0]!
        .credits,
    ).toBe(83);
  });

  it('the same key with another body is 422 IDEMPOTENCY_KEY_REUSED and charges nothing', async () => {
    const dev = await developer(40);
    expect((await post(a, dev.key, 'k', { prompt: 'first' })).statusCode).toBe(202);
    const other = await post(b, dev.key, 'k', { prompt: 'second' });
    expect(other.statusCode).toBe(422);
    expect(other.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    // The same body written in another key order is the same request.
    const same = await post(b, dev.key, 'k2', { prompt: 'p', tier: 'fast' });
    const reordered = await b.app.inject({
      method: 'POST',
      url: '/v1/videos',
      headers: {
        authorization: `Bearer ${dev.key}`,
        'idempotency-key': 'k2',
        'content-type': 'application/json',
      },
      payload: '{"tier":"fast","prompt":"p"}',
    });
    expect(reordered.headers['idempotent-replayed']).toBe('true');
    expect(reordered.body).toBe(same.body);
    expect(await charges(dev.userId)).toBe(2);
  });

  it('an error answer frees the key: fixed and retried with it, the request runs', async () => {
    const dev = await developer(0);
    const broke = await post(a, dev.key, 'retry-me', { prompt: 'when paid' });
    expect(broke.statusCode).toBe(402);
    expect(
      await rows(sql`select 1 from idempotency_keys where api_key_id = ${dev.apiKeyId}`),
    ).toEqual([]);
    await grantCredits(a, dev.userId, 17);
    const paid = await post(b, dev.key, 'retry-me', { prompt: 'when paid' });
    expect(paid.statusCode).toBe(202);
    expect(paid.headers['idempotent-replayed']).toBeUndefined();
    expect(await charges(dev.userId)).toBe(1);
  });

  it('keys are per API key: the same Idempotency-Key on two keys is two requests', async () => {
    const dev = await developer(40);
    const other = await a.app.apiKeys.create(dev.userId, { name: 'two', scopes: ['videos:write'] });
    const one = await post(a, dev.key, 'shared', { prompt: 'same' });
    const two = await post(a, other.key, 'shared', { prompt: 'same' });
    expect([one.statusCode, two.statusCode]).toEqual([202, 202]);
    expect(one.json().id).not.toBe(two.json().id);
    expect(await tasks(dev.userId)).toBe(2);
  });

  it('a request in flight is 409; once its lock has run out (a crash) a retry takes it over', async () => {
    const dev = await developer(40);
    const body = { prompt: 'crashed' };
    expect((await post(a, dev.key, 'crash', body)).statusCode).toBe(202);
    // As if the request were still running: in flight, its lock ahead.
    const where = sql`api_key_id = ${dev.apiKeyId} and key = 'crash'`;
    await database.db.execute(
      sql`update idempotency_keys set status = 'in_flight', response_status = null,
          response_body = null, locked_until = now() + interval '1 minute' where ${where}`,
    );
    const busy = await post(b, dev.key, 'crash', body);
    expect(busy.statusCode).toBe(409);
    expect(busy.headers['retry-after']).toBe('1');
    // As if it had crashed: the lock ran out.
    await database.db.execute(
      sql`update idempotency_keys set locked_until = now() - interval '1 second' where ${where}`,
    );
    const taken = await post(b, dev.key, 'crash', body);
    expect(taken.statusCode).toBe(202);
    expect(taken.headers['idempotent-replayed']).toBeUndefined();
    const replay = await post(a, dev.key, 'crash', body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(taken.body);
  });

  it('expired keys are forgotten: a new request may use them, and the job deletes them', async () => {
    const dev = await developer(40);
    expect((await post(a, dev.key, 'old', { prompt: 'yesterday' })).statusCode).toBe(202);
    await database.db.execute(
      sql`update idempotency_keys set expires_at = now() - interval '1 second'
          where api_key_id = ${dev.apiKeyId}`,
    );
    const again = await post(b, dev.key, 'old', { prompt: 'today' });
    expect(again.statusCode).toBe(202);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    await database.db.execute(
      sql`update idempotency_keys set expires_at = now() - interval '1 second'
          where api_key_id = ${dev.apiKeyId}`,
    );
    expect(await createIdempotency({ db: database.db }).deleteExpired()).toBeGreaterThanOrEqual(1);
    expect(
      await rows(sql`select 1 from idempotency_keys where api_key_id = ${dev.apiKeyId}`),
    ).toEqual([]);
  });

  it('refuses an Idempotency-Key longer than the limit, naming the header', async () => {
    const dev = await developer(20);
    const res = await post(a, dev.key, 'k'.repeat(IDEMPOTENCY_KEY_MAX + 1), { prompt: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.param).toBe('idempotency-key');
    expect(await charges(dev.userId)).toBe(0);
  });

  it('an extension of an unknown video is 404 and frees its key', async () => {
    const dev = await developer(20);
    const id = '00000000-0000-4000-8000-000000000000';
    const missing = await post(a, dev.key, 'ext', { prompt: 'more' }, `/v1/videos/${id}/extend`);
    expect(missing.statusCode).toBe(404);
    // The 404 freed the key.
    expect(
      await rows(sql`select 1 from idempotency_keys where api_key_id = ${dev.apiKeyId}`),
    ).toEqual([]);
  });
});
