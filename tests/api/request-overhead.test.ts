/**
 * Per-request work outside the handlers (issue 33, item 2) happens only where a route needs it:
 * a session token is looked up only by routes that read their caller; the identity headers are
 * still checked on every route; only the upload routes take multipart bodies (and carry
 * @fastify/multipart's hooks); each answer is timed once, by its route's pattern.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';
import { multipart } from '../helpers/video.ts';

describe('per-request work only where a route needs it', () => {
  let t: TestApp;
  let token: string;
  let userId: string;

  beforeAll(async () => {
    t = await createTestApp('pglite');
    const ann = await signInLocal(t.app, 'overhead@example.com');
    token = ann.token;
    userId = ann.user.id;
  });
  afterAll(() => t.close());

  /** Session reads since the last call (the user cache counts each lookup, hit or miss). */
  const lookups = (() => {
    let seen = 0;
    return () => {
      const { hits, misses } = t.app.userCache.stats();
      const count = hits + misses - seen;
      seen = hits + misses;
      return count;
    };
  })();

  it('does not look up the session of a signed-in caller on routes that do not read it', async () => {
    lookups();
    for (const url of ['/api/health/live', '/api/blog/posts?page=1&limit=12', '/api/auth/config']) {
      const res = await t.app.inject({ url, headers: bearer(token) });
      expect(res.statusCode, url).toBe(200);
    }
    expect(lookups()).toBe(0);
    // Routes that read their caller do.
    const user = await t.app.inject({ url: '/api/auth/user', headers: bearer(token) });
    expect(user.statusCode).toBe(200);
    expect(user.json().data.user.id).toBe(userId);
    expect(lookups()).toBe(1);
  });

  it('reads the session on a public route that declares it reads its caller (/api/db)', async () => {
    lookups();
    const own = await t.app.inject({ url: '/api/db/credit_transactions', headers: bearer(token) });
    expect(own.statusCode).toBe(200);
    expect(lookups()).toBeGreaterThanOrEqual(1);
    // Without the session the same table is refused: the answer depended on the caller.
    const anonymous = await t.app.inject({ url: '/api/db/credit_transactions' });
    expect(anonymous.statusCode).toBeGreaterThanOrEqual(400);
  });

  it('still checks the identity headers on a route that does not read the caller', async () => {
    const url = '/api/health/live';
    const agrees = await t.app.inject({
      url,
      headers: { ...bearer(token), 'x-user-id': userId },
    });
    expect(agrees.statusCode).toBe(200);
    const disagrees = await t.app.inject({
      url,
      headers: { ...bearer(token), 'x-user-id': '00000000-0000-4000-8000-000000000000' },
    });
    expect(disagrees.statusCode).toBe(403);
    expect(disagrees.json()).toMatchObject({ code: 'IDENTITY_MISMATCH' });
    const withoutSession = await t.app.inject({ url, headers: { 'x-user-email': 'a@b.example' } });
    expect(withoutSession.statusCode).toBe(403);
  });

  it('takes multipart bodies only on the upload routes', async () => {
    const form = multipart({ name: 'Ann', email: 'form@example.com' });
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/auth/local',
      headers: form.headers,
      payload: form.payload,
    });
    expect(refused.statusCode).toBe(415);
    expect(refused.json()).toMatchObject({ success: false, code: 'UNSUPPORTED_MEDIA_TYPE' });
    // An upload route still reads its form (here: a signed-in caller without credits).
    const upload = multipart({ prompt: 'A lighthouse at dusk', model: 'veo3' });
    const generate = await t.app.inject({
      method: 'POST',
      url: '/api/video/generate',
      headers: { ...upload.headers, ...bearer(token) },
      payload: upload.payload,
    });
    expect(generate.statusCode).toBe(402);
  });

  it('times each answer once, by its route pattern, HEAD and GET apart', async () => {
    const count = async (labels: Record<string, string>) => {
      const { values } = await t.app.metrics.httpDuration.get();
      const found = values.find(
        (v) =>
          v.metricName === 'http_request_duration_seconds_count' &&
          Object.entries(labels).every(
            ([k, value]) => (v.labels as Record<string, unknown>)[k] === value,
          ),
      );
      return found?.value ?? 0;
    };
    const total = async () =>
      (await t.app.metrics.httpDuration.get()).values
        .filter((v) => v.metricName === 'http_request_duration_seconds_count')
        .reduce((sum, v) => sum + v.value, 0);
    const before = await total();
    const live = { route: '/api/health/live', status: '200' };
    const get = await count({ ...live, method: 'GET' });
    const head = await count({ ...live, method: 'HEAD' });
    const unmatched = await count({ route: 'unmatched', status: '404', method: 'GET' });
    await t.app.inject({ url: '/api/health/live' });
    await t.app.inject({ method: 'HEAD', url: '/api/health/live' });
    await t.app.inject({ url: '/api/no-such-route' });
    expect(await count({ ...live, method: 'GET' })).toBe(get + 1);
    expect(await count({ ...live, method: 'HEAD' })).toBe(head + 1);
    expect(await count({ route: 'unmatched', status: '404', method: 'GET' })).toBe(unmatched + 1);
    expect(await total()).toBe(before + 3);
  });
});
