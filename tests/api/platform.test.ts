import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';
import { captureLogLines } from '../helpers/logs.ts';

describe('logs', () => {
  let t: TestApp;
  const { stream, lines } = captureLogLines();

  beforeAll(async () => {
    t = await createTestApp('pglite', { env: { LOG_LEVEL: 'info' }, deps: { logStream: stream } });
  });
  afterAll(() => t.close());

  it('never contain bearer tokens, passwords or reset tokens', async () => {
    const { token } = await signInLocal(t.app, 'logs@example.com');
    await t.app.inject({
      url: '/api/auth/user',
      headers: { ...bearer(token), cookie: 'sid=cookie-secret' },
    });
    await t.app.inject({
      method: 'POST',
      url: '/auth/signup',
      payload: { email: 'logpw@example.com', password: 'hunter2-password' },
    });
    await t.app.inject({
      method: 'POST',
      url: '/auth/signin',
      payload: { email: 'x@example.com', password: 'wrong-password-9' },
    });
    await t.app.inject({ url: '/api/health?token=query-secret-token' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const log = lines.join('\n');
    expect(log).toContain('/api/auth/user'); // requests are logged…
    for (const secret of [
      token,
      'cookie-secret',
      'hunter2-password',
      'wrong-password-9',
      'query-secret-token',
    ]) {
      expect(log).not.toContain(secret); // …without their secrets
    }
  });
});

describe('API-wide answers: rate limits, security headers, 404s, OpenAPI', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { deps: { authRateLimit: 3 } });
  });
  afterAll(() => t.close());

  it('rate-limits sign-in attempts per client with a 429 in the error shape', async () => {
    const attempt = () =>
      t.app.inject({
        method: 'POST',
        url: '/auth/signin',
        payload: { email: 'rl@example.com', password: 'nope-nope' },
      });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await attempt()).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const limited = await attempt();
    expect(limited.json()).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    expect(limited.json().message).toMatch(/too many/i);
  });

  it('sends security headers on API answers: nothing may load or frame them', async () => {
    const res = await t.app.inject({ url: '/api/health' });
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none';frame-ancestors 'none'",
    );
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['strict-transport-security']).toBeUndefined(); // production only
  });

  it("sends the pages' CSP, Google sign-in and GA4 allowed, on page answers", async () => {
    const res = await t.app.inject({ url: '/no-such-page' });
    expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'self'/);
    expect(res.headers['content-security-policy']).toMatch(
      /script-src 'self' https:\/\/accounts\.google\.com\/gsi\/client/,
    );
    // GA4 loads gtag.js and sends its hits only after consent, but the CSP must allow both.
    expect(res.headers['content-security-policy']).toMatch(
      /script-src [^;]*https:\/\/www\.googletagmanager\.com/,
    );
    expect(res.headers['content-security-policy']).toMatch(
      /connect-src [^;]*https:\/\/\*\.google-analytics\.com https:\/\/\*\.analytics\.google\.com https:\/\/www\.googletagmanager\.com/,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await t.app.inject({ url: '/api/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });

  it('publishes an OpenAPI document listing the auth routes', async () => {
    const res = await t.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/auth/google',
        '/api/auth/local',
        '/api/auth/signout',
        '/api/health',
      ]),
    );
    expect((await t.app.inject({ url: '/api/docs' })).statusCode).toBeLessThan(400);
  });
});
