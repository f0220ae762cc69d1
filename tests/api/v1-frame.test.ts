/**
 * The frame of every /v1 answer (issue 36, item 2), on PGlite and PostgreSQL, through test-only
 * routes added to the app's /v1 scope: only `Authorization: Bearer vs_live_…` authenticates (no
 * session token, no x-user-id); a revoked key is 401, a missing scope 403; every answer carries
 * x-request-id; errors are `{ error: { code, message, param? } }` in the caller's language; and
 * unknown /v1 addresses are a JSON 404.
 */
import type { FastifyInstance, RouteOptions } from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { msg } from '../../server/core/api-messages.ts';
import { AppError } from '../../server/core/errors.ts';
import type { CreatedApiKey } from '../../shared/public-api.ts';
import { bearer, createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';

/**
 * Adds the test's routes to the /v1 scope when the frame registers its not-found route there, so
 * they get the scope's hooks and error handler as the real /v1 routes do.
 */
function v1TestRoutes(this: FastifyInstance, route: RouteOptions) {
  if (route.url !== '/v1/*') return;
  this.get(
    '/v1/test/whoami',
    { config: { access: 'api-key', scope: 'credits:read' } },
    async (request) => ({ user: request.user?.id, key: request.apiKey?.id }),
  );
  this.post(
    '/v1/test/echo',
    {
      config: { access: 'api-key', scope: 'videos:write' },
      schema: {
        body: Type.Object(
          { prompt: Type.String({ minLength: 1 }), options: Type.Object({ seed: Type.Integer() }) },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => request.body,
  );
  this.get('/v1/test/refuse', { config: { access: 'api-key' } }, async () => {
    throw Object.assign(new AppError(402, 'INSUFFICIENT_CREDITS', msg('status.refused')), {
      param: 'prompt',
    });
  });
  this.get('/v1/test/boom', { config: { access: 'api-key' } }, async () => {
    throw new Error('database password is hunter2');
  });
}

describe.each(databaseKinds)('the /v1 frame on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { deps: { onRoute: v1TestRoutes } });
  });
  afterAll(() => t.close());

  let n = 0;
  async function keyFor(scopes: string[]) {
    const session = await signInLocal(t.app, `frame-${kind}-${++n}@example.com`);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/account/api-keys',
      headers: bearer(session.token),
      payload: { name: 'test', scopes },
    });
    expect(res.statusCode).toBe(201);
    return { session, key: res.json().data as CreatedApiKey };
  }
  const whoami = (headers: Record<string, string> = {}) =>
    t.app.inject({ url: '/v1/test/whoami', headers });

  const expectError = (
    res: Awaited<ReturnType<typeof whoami>>,
    status: number,
    code: string,
    message: RegExp = /\w/,
  ) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.headers['x-request-id']).toMatch(/\S/);
    expect(res.json()).toEqual({ error: { code, message: expect.stringMatching(message) } });
  };

  it('answers a valid key with its owner, a request id and the rate-limit headers', async () => {
    const { session, key } = await keyFor(['credits:read']);
    const res = await whoami(bearer(key.key));
    // Core's 'api-key' guard (a route hook) refuses a request without request.apiKey: this 200
    // shows the frame's scope hook ran before it.
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: session.user.id, key: key.id });
    expect(res.headers['x-request-id']).toMatch(/\S/);
    expect(res.headers['ratelimit-limit']).toBe('60');
    expect(res.headers['ratelimit-remaining']).toBe('59');
    expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
    expect(Number(res.headers['ratelimit-reset'])).toBeLessThanOrEqual(60);
    const second = await whoami(bearer(key.key));
    expect(second.headers['ratelimit-remaining']).toBe('58');
    expect(second.headers['x-request-id']).not.toBe(res.headers['x-request-id']);

    // Its last use is written (off the request's path).
    await vi.waitFor(async () => {
      const list = await t.app.inject({
        url: '/api/account/api-keys',
        headers: bearer(session.token),
      });
      expect(list.json().data.items[0].last_used_at).not.toBeNull();
    });
  });

  it('takes only Authorization: Bearer vs_live_…', async () => {
    const { session, key } = await keyFor(['credits:read']);
    expectError(await whoami(), 401, 'API_KEY_REQUIRED', /API key/);
    // The site's session token, as a bearer or a cookie, is no key.
    expectError(await whoami(bearer(session.token)), 401, 'API_KEY_INVALID', /session token/);
    expectError(await whoami({ cookie: `token=${session.token}` }), 401, 'API_KEY_REQUIRED');
    expectError(await whoami({ authorization: `Basic ${key.key}` }), 401, 'API_KEY_REQUIRED');
    const unknown = `vs_live_${'A'.repeat(43)}`;
    expectError(await whoami(bearer(unknown)), 401, 'API_KEY_INVALID', /not valid/);
    // x-user-id (another user's) neither authenticates nor overrides the key's owner.
    const other = await signInLocal(t.app, `other-${kind}-${++n}@example.com`);
    expectError(await whoami({ 'x-user-id': other.user.id }), 401, 'API_KEY_REQUIRED');
    const res = await whoami({ ...bearer(key.key), 'x-user-id': other.user.id });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toBe(session.user.id);
  });

  it('refuses a revoked key at once', async () => {
    const { session, key } = await keyFor(['credits:read']);
    expect((await whoami(bearer(key.key))).statusCode).toBe(200);
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/api/account/api-keys/${key.id}`,
      headers: bearer(session.token),
    });
    expect(revoked.statusCode).toBe(204);
    expectError(await whoami(bearer(key.key)), 401, 'API_KEY_REVOKED', /revoked/);
  });

  it("refuses a key without the route's scope, naming it", async () => {
    const { key } = await keyFor(['videos:read', 'videos:write']);
    const res = await whoami(bearer(key.key));
    expectError(res, 403, 'API_KEY_SCOPE_MISSING', /credits:read/);
    expect(res.json().error.message).toContain('videos:read, videos:write');
  });

  it('shapes validation errors with the field in `param`', async () => {
    const { key } = await keyFor(['videos:write']);
    const echo = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/v1/test/echo', headers: bearer(key.key), payload });
    const ok = await echo({ prompt: 'a cat', options: { seed: 1 } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['ratelimit-limit']).toBe('60');

    const cases: Array<[Record<string, unknown>, string]> = [
      [{ options: { seed: 1 } }, 'prompt'],
      [{ prompt: 'a cat', options: { seed: 'x' } }, 'options.seed'],
      [{ prompt: 'a cat', options: { seed: 1 }, colour: 'red' }, 'colour'],
    ];
    for (const [payload, param] of cases) {
      const res = await echo(payload);
      expect(res.statusCode).toBe(400);
      expect(res.headers['x-request-id']).toMatch(/\S/);
      // Errors after the key was counted still name the budget.
      expect(res.headers['ratelimit-remaining']).toMatch(/^\d+$/);
      expect(res.json()).toEqual({
        error: { code: 'INVALID_REQUEST', message: expect.stringContaining(param), param },
      });
    }
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/v1/test/echo',
      headers: { ...bearer(key.key), 'content-type': 'application/json' },
      payload: '{"prompt":',
    });
    expectError(notJson, 400, 'INVALID_JSON');
    const large = await echo({ prompt: 'x'.repeat(200_000), options: { seed: 1 } });
    expectError(large, 413, 'BODY_TOO_LARGE');
  });

  it("answers errors in the caller's language", async () => {
    const res = await whoami({ 'accept-language': 'zh-CN,zh;q=0.9' });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toMatch(/[\u4e00-\u9fff]/);
    expect(res.headers.vary).toMatch(/Accept-Language/);
  });

  it("turns a service's AppError into its status, code and `param`", async () => {
    const { key } = await keyFor(['credits:read']);
    const res = await t.app.inject({ url: '/v1/test/refuse', headers: bearer(key.key) });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({
      error: { code: 'INSUFFICIENT_CREDITS', message: 'The request was refused.', param: 'prompt' },
    });
  });

  it('hides an internal error behind 500 INTERNAL_ERROR', async () => {
    const { key } = await keyFor(['credits:read']);
    const res = await t.app.inject({ url: '/v1/test/boom', headers: bearer(key.key) });
    expectError(res, 500, 'INTERNAL_ERROR');
    expect(res.body).not.toContain('hunter2');
  });

  it('answers an unknown /v1 address with a JSON 404, never a page', async () => {
    const { key } = await keyFor(['credits:read']);
    for (const [method, url] of [
      ['GET', '/v1/nothing'],
      ['GET', '/v1'],
      ['POST', '/v1/test/whoami'],
      ['DELETE', '/v1/videos/x/y/z?limit=3'],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: bearer(key.key) });
      expectError(res, 404, 'NOT_FOUND', new RegExp(url.split('?')[0]!.replaceAll('/', '\\/')));
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    }
    expectError(await t.app.inject({ url: '/v1/nothing' }), 404, 'NOT_FOUND');
  });

  it('counts requests by key class and status on /metrics', async () => {
    const { key } = await keyFor(['credits:read']);
    await whoami(bearer(key.key));
    await whoami();
    const text = await t.app.metrics.registry.getSingleMetricAsString('api_requests_total');
    expect(text).toMatch(/api_requests_total\{key_class="default",status="200"\} [1-9]/);
    expect(text).toMatch(/api_requests_total\{key_class="none",status="401"\} [1-9]/);
  });
});
