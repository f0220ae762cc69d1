/**
 * /v1's per-key request budget (issue 36, item 5): 60 a minute by default, raised by the owner's
 * plan (content/plans.json `api`), with the IETF draft's RateLimit-* headers and Retry-After on
 * 429, counted in the shared store so two instances on one database (PGlite, PostgreSQL) or one
 * Redis grant one budget between them.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import { planLimits } from '../../server/domains/api/v1-limits.ts';
import { subscriptions } from '../../server/db/schema.ts';
import { API_DEFAULT_LIMITS, type CreatedApiKey } from '../../shared/public-api.ts';
import catalogue from '../../content/plans.json' with { type: 'json' };
import { bearer, signInLocal, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../helpers/database.ts';
import { REDIS_URL, redisAnswers, twoInstances } from '../helpers/instances.ts';

const LIMIT = API_DEFAULT_LIMITS.requestsPerMinute;

/** A route in the app's /v1 scope (added when the frame registers its not-found route there). */
function limitsRoute(this: FastifyInstance, route: RouteOptions) {
  if (route.url !== '/v1/*') return;
  this.get(
    '/v1/test/limits',
    { config: { access: 'api-key', scope: 'credits:read' } },
    async (r) => (r.apiKey ? r.apiKey.limits : null),
  );
}

const redisReachable = await redisAnswers(REDIS_URL);

let n = 0;
async function newKey(t: TestApp) {
  const session = await signInLocal(t.app, `limits-${++n}-${Date.now()}@example.com`);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/account/api-keys',
    headers: bearer(session.token),
    payload: { name: 'limits', scopes: ['credits:read'] },
  });
  expect(res.statusCode).toBe(201);
  return { user: session.user, key: (res.json().data as CreatedApiKey).key };
}

const call = (t: TestApp, key: string) =>
  t.app.inject({ url: '/v1/test/limits', headers: bearer(key) });

/** `limit` requests alternating between the instances pass; the next, on either, is 429. */
async function expectOneBudget(a: TestApp, b: TestApp, key: string, limit: number) {
  for (let i = 0; i < limit; i++) {
    const res = await call(i % 2 ? b : a, key);
    expect(res.statusCode, `request ${i + 1}`).toBe(200);
    expect(res.headers['ratelimit-remaining']).toBe(String(limit - i - 1));
  }
  for (const t of [a, b]) {
    const refused = await call(t, key);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error: {
        code: 'RATE_LIMITED',
        message: expect.stringMatching(
          new RegExp(`at most ${limit} a minute\\. Retry in \\d+ seconds?\\.`),
        ),
      },
    });
    expect(refused.headers['ratelimit-limit']).toBe(String(limit));
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    const reset = Number(refused.headers['ratelimit-reset']);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(reset).toBeGreaterThanOrEqual(0);
    expect(reset).toBeLessThanOrEqual(60);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers['x-request-id']).toMatch(/\S/);
  }
}

describe("a key's limits by its owner's plan", () => {
  it("raises the defaults to the plan's `api`, and keeps them for no plan or a retired one", () => {
    const defaults = { ...API_DEFAULT_LIMITS };
    for (const plan of catalogue.plans) {
      expect(planLimits(plan.id, defaults)).toEqual({ limits: plan.api, keyClass: plan.id });
    }
    expect(planLimits(null, defaults)).toEqual({ limits: defaults, keyClass: 'default' });
    expect(planLimits('retired-plan', defaults)).toEqual({ limits: defaults, keyClass: 'default' });
  });

  it("takes the operator's defaults (API_REQUESTS_PER_MINUTE, API_UNFINISHED_VIDEOS), which a plan only raises", () => {
    const raised = { requestsPerMinute: 200, unfinishedVideos: 9 };
    expect(planLimits(null, raised)).toEqual({ limits: raised, keyClass: 'default' });
    // Lite names 150 a minute and 8 videos: below these defaults, so the defaults hold.
    expect(planLimits('lite', raised).limits).toEqual(raised);
    expect(planLimits('pro+', raised).limits).toEqual({
      requestsPerMinute: 600,
      unfinishedVideos: 20,
    });
  });
});

describe.each(databaseKinds)('per-key request limits through the database on %s', (kind) => {
  let database: TestDatabase;
  let instances: Awaited<ReturnType<typeof twoInstances>>;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    instances = await twoInstances(database, { deps: { onRoute: limitsRoute } });
  });
  afterAll(async () => {
    await instances.close();
    await database.dispose();
  });

  it(`grants one key ${LIMIT} requests a minute across two instances, then 429`, async () => {
    const { a, b } = instances;
    const { key } = await newKey(a);
    await expectOneBudget(a, b, key, LIMIT);
    // The budget is the key's: another key has its own, with the default limits.
    const other = await newKey(a);
    const res = await call(b, other.key);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(API_DEFAULT_LIMITS);
  });

  it("raises the limits to the owner's plan's", async () => {
    const { a, b } = instances;
    const plan = catalogue.plans.find((p) => p.id === 'lite')!;
    const { user, key } = await newKey(a);
    await database.db.insert(subscriptions).values({
      id: `sub_local_${user.id}`,
      provider: 'local',
      userId: user.id,
      planId: plan.id,
      billingCycle: 'monthly',
      status: 'active',
      currentPeriodStart: new Date(),
      currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000),
    });
    const res = await call(b, key);
    expect(res.json()).toEqual(plan.api);
    expect(res.headers['ratelimit-limit']).toBe(String(plan.api.requestsPerMinute));
    const metrics = await b.app.metrics.registry.getSingleMetricAsString('api_requests_total');
    expect(metrics).toMatch(/api_requests_total\{key_class="lite",status="200"\} 1/);
  });
});

describe.skipIf(!redisReachable)('per-key request limits through Redis (REDIS_URL)', () => {
  let database: TestDatabase;
  let instances: Awaited<ReturnType<typeof twoInstances>>;
  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    instances = await twoInstances(database, {
      env: { REDIS_URL },
      deps: { onRoute: limitsRoute },
    });
  });
  afterAll(async () => {
    await instances.close();
    await database.dispose();
  });

  it('grants one budget across two instances, counted in Redis', async () => {
    const { a, b } = instances;
    const { key } = await newKey(a);
    await expectOneBudget(a, b, key, LIMIT);
    // Counted in Redis, not in the database.
    const rows = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from rate_limit_hits`,
    );
    expect(rows).toEqual([{ n: 0 }]);
  });
});
