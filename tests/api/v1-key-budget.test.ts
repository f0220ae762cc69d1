/**
 * /v1 at a high request rate (issue 36, the bench's GET /v1/videos/{id}): a key read once per
 * process (revoked everywhere at once by the database's change notice) and a budget reserved in
 * blocks, so a busy key is not a write per request on one row. What must still hold: two
 * instances together never grant more than the key's budget, and a key revoked on one instance
 * is refused by the other.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import type { CreatedApiKey } from '../../shared/public-api.ts';
import { bearer, signInLocal, type TestApp } from '../helpers/app.ts';
import { twoInstances } from '../helpers/instances.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../helpers/database.ts';

const LIMIT = 1000;

/** A route in the app's /v1 scope (added when the frame registers its not-found route there). */
function budgetRoute(this: FastifyInstance, route: RouteOptions) {
  if (route.url !== '/v1/*') return;
  this.get(
    '/v1/test/budget',
    { config: { access: 'api-key', scope: 'credits:read' } },
    async () => ({ ok: true }),
  );
}

describe.each(databaseKinds)('a busy key on two instances on %s', (kind) => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let instances: Awaited<ReturnType<typeof twoInstances>>;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    instances = await twoInstances(database, {
      env: { API_REQUESTS_PER_MINUTE: String(LIMIT) },
      deps: { onRoute: budgetRoute },
    });
    ({ a, b } = instances);
  });
  afterAll(async () => {
    await instances.close();
    await database.dispose();
  });

  async function newKey() {
    const session = await signInLocal(a.app, `budget-${kind}-${Date.now()}@example.com`);
    const res = await a.app.inject({
      method: 'POST',
      url: '/api/account/api-keys',
      headers: bearer(session.token),
      payload: { name: 'busy', scopes: ['credits:read'] },
    });
    expect(res.statusCode, res.body).toBe(201);
    return { token: session.token, key: res.json().data as CreatedApiKey };
  }

  it('grants at most the budget between them, and nearly all of it', async () => {
    const { key } = await newKey();
    const statuses: number[] = [];
    // In bursts of 20 at once on each instance, until both keep refusing.
    for (let round = 0; round < 60 && statuses.filter((s) => s === 429).length < 40; round++) {
      const burst = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 ? b : a).app.inject({ url: '/v1/test/budget', headers: bearer(key.key) }),
        ),
      );
      statuses.push(...burst.map((res) => res.statusCode));
    }
    const granted = statuses.filter((s) => s === 200).length;
    expect(granted).toBeLessThanOrEqual(LIMIT);
    // Each instance may leave part of one block (a hundredth of the budget) unused.
    expect(granted).toBeGreaterThanOrEqual(LIMIT - 2 * (LIMIT / 100));
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    const [row] = await queryRows<{ hits: number }>(
      database.db,
      sql`select hits from rate_limit_hits where key = ${`v1-key:${key.id}`}`,
    );
    // The shared count holds every block reserved: the whole budget, and no request beyond it.
    expect(row!.hits).toBeGreaterThanOrEqual(LIMIT);
  });

  it('refuses on one instance a key revoked on the other, without waiting for its cache to age', async () => {
    const { token, key } = await newKey();
    const read = (t: TestApp) => t.app.inject({ url: '/v1/test/budget', headers: bearer(key.key) });
    expect((await read(a)).statusCode).toBe(200);
    expect((await read(a)).statusCode).toBe(200); // now from a's cache
    const revoked = await b.app.inject({
      method: 'DELETE',
      url: `/api/account/api-keys/${key.id}`,
      headers: bearer(token),
    });
    expect(revoked.statusCode, revoked.body).toBe(204);
    // The change notice reaches a shortly after the commit (PostgreSQL: another connection).
    let status = 0;
    for (let i = 0; i < 1000 && status !== 401; i++) {
      status = (await read(a)).statusCode;
      if (status !== 401) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(status).toBe(401);
    expect((await read(a)).json().error.code).toBe('API_KEY_REVOKED');
  });
});
