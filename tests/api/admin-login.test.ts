import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import * as passwords from '../../server/core/passwords.ts';
import { ADMIN_MESSAGES } from '../../shared/admin.ts';
import { LOCKOUT_FAILURES, LOCKOUT_MS } from '../../server/domains/admin/service.ts';
import { bearer, createTestApp, signInLocal, TEST_ADMIN, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';
import { captureLogLines } from '../helpers/logs.ts';
import { median } from '../helpers/measure.ts';

describe.each(databaseKinds)('admin sign-in on %s', (kind) => {
  let t: TestApp;
  // The sign-in's clock; sessions still expire by the database's clock, so it starts at now.
  let clock = new Date();
  const { stream, lines } = captureLogLines();

  beforeAll(async () => {
    t = await createTestApp(kind, {
      env: { LOG_LEVEL: 'info' },
      deps: { logStream: stream, now: () => clock },
    });
  });
  afterAll(() => t.close());
  // Every test starts after any lock and run of failures of the one before it has run out.
  beforeEach(() => {
    clock = new Date(clock.getTime() + LOCKOUT_MS + 60_000);
  });

  /** Each test signs in from its own address, so per-address lockouts stay apart. */
  const login = (payload: object, remoteAddress: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/admin-login', payload, remoteAddress });

  it('signs in with the right username and password: a 12-hour admin session', async () => {
    const res = await login(TEST_ADMIN, '10.0.0.1');
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.admin).toEqual({ username: TEST_ADMIN.username });
    expect(new Date(data.expiresAt).getTime() - clock.getTime()).toBe(12 * 60 * 60 * 1000);
    const me = await t.app.inject({ url: '/api/admin/me', headers: bearer(data.token) });
    expect(me.json()).toEqual({ success: true, data: { username: TEST_ADMIN.username } });
  });

  it.each([
    ['a wrong password', { username: TEST_ADMIN.username, password: 'not the password' }],
    ['a wrong username', { username: 'root', password: TEST_ADMIN.password }],
    ['a username differing in case', { username: 'OPS', password: TEST_ADMIN.password }],
  ])('answers 401 with one message for %s', async (_case, payload) => {
    const res = await login(payload, '10.0.0.2');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      success: false,
      message: 'Wrong username or password.',
      code: 'INVALID_ADMIN_CREDENTIALS',
    });
  });

  it('locks an address after 5 failures in a row, even for the right password, then unlocks', async () => {
    const wrong = { username: TEST_ADMIN.username, password: 'guess-1234' };
    // Another address is not locked by these (tests/security/admin-lockout.test.ts).
    for (let i = 0; i < LOCKOUT_FAILURES; i++) {
      expect((await login(wrong, '10.1.1.1')).statusCode).toBe(401);
    }
    const locked = await login(TEST_ADMIN, '10.1.1.1');
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({
      success: false,
      message: 'Too many failed sign-ins. Try again in 15 minutes.',
      code: 'ADMIN_LOCKED',
    });

    clock = new Date(clock.getTime() + LOCKOUT_MS - 60_000);
    expect((await login(TEST_ADMIN, '10.1.1.1')).json().message).toBe(ADMIN_MESSAGES.locked(1));

    clock = new Date(clock.getTime() + 61_000);
    expect((await login(TEST_ADMIN, '10.1.1.1')).statusCode).toBe(200);
  });

  it('locks an address after 5 failures, whatever usernames it tries', async () => {
    for (let i = 0; i < LOCKOUT_FAILURES; i++) {
      const res = await login({ username: `guess${i}`, password: 'x' }, '10.2.0.1');
      expect(res.statusCode).toBe(401);
    }
    expect((await login(TEST_ADMIN, '10.2.0.1')).statusCode).toBe(429);
    expect((await login(TEST_ADMIN, '10.2.0.2')).statusCode).toBe(200);
  });

  it('counts failures in a row only: a success starts the count again', async () => {
    const wrong = { username: TEST_ADMIN.username, password: 'guess-5678' };
    for (let i = 0; i < LOCKOUT_FAILURES - 1; i++) await login(wrong, '10.3.0.1');
    expect((await login(TEST_ADMIN, '10.3.0.1')).statusCode).toBe(200);
    for (let i = 0; i < LOCKOUT_FAILURES - 1; i++) await login(wrong, '10.3.0.1');
    expect((await login(TEST_ADMIN, '10.3.0.1')).statusCode).toBe(200);
  });

  it('runs the scrypt check for a wrong username too, so timing does not reveal it', async () => {
    const verify = vi.spyOn(passwords, 'verifyPassword');
    try {
      await login({ username: 'nobody-here', password: 'whatever-1' }, '10.4.0.1');
      await login({ username: TEST_ADMIN.username, password: 'whatever-2' }, '10.4.0.2');
      expect(verify).toHaveBeenCalledTimes(2);
      expect(verify.mock.calls.map((c) => c[0])).toEqual(['whatever-1', 'whatever-2']);
    } finally {
      verify.mockRestore();
    }
    // And measured: both paths cost the same order of time (scrypt dominates both).
    const time = async (username: string, ip: string) => {
      const started = performance.now();
      await login({ username, password: 'wrong-password' }, ip);
      return performance.now() - started;
    };
    const unknown: number[] = [];
    const known: number[] = [];
    for (let i = 0; i < 4; i++) {
      unknown.push(await time(`nobody${i}`, `10.5.0.${i}`));
      known.push(await time(TEST_ADMIN.username, `10.6.0.${i}`));
    }
    // Skipping scrypt would make the unknown name ~100x faster; allow for a busy machine.
    const ratio = median(unknown) / median(known);
    expect(ratio).toBeGreaterThan(0.2);
    expect(ratio).toBeLessThan(5);
  });

  it('refuses a customer session on the admin API, and an admin token is no customer upgrade', async () => {
    const customer = await signInLocal(t.app, 'cust@example.com', 'Cust');
    const res = await t.app.inject({ url: '/api/admin/me', headers: bearer(customer.token) });
    expect(res.statusCode).toBe(403);
  });

  it('ends the admin session on admin-logout', async () => {
    const { token } = (await login(TEST_ADMIN, '10.7.0.1')).json().data;
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/admin-logout',
      headers: bearer(token),
    });
    expect(out.statusCode).toBe(200);
    const me = await t.app.inject({ url: '/api/admin/me', headers: bearer(token) });
    expect(me.statusCode).toBe(401);
  });

  it('logs each attempt with username and address, never the password', async () => {
    await login({ username: TEST_ADMIN.username, password: 'Secret-Typo-111' }, '10.8.0.1');
    await login(TEST_ADMIN, '10.8.0.2');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries).toContainEqual(
      expect.objectContaining({
        msg: 'admin sign-in failed',
        username: TEST_ADMIN.username,
        ip: '10.8.0.1',
      }),
    );
    expect(entries).toContainEqual(
      expect.objectContaining({ msg: 'admin sign-in succeeded', ip: '10.8.0.2' }),
    );
    const log = lines.join('\n');
    expect(log).not.toContain('Secret-Typo-111');
    expect(log).not.toContain(TEST_ADMIN.password);
  });

  it('does not list the admin row among customers', async () => {
    const token = (await login(TEST_ADMIN, '10.9.0.1')).json().data.token;
    const users = await t.app.inject({ url: '/api/admin/users?q=ops', headers: bearer(token) });
    expect(users.json().data).toMatchObject({ users: [], total: 0, has_more: false });
  });

  it('cannot be reached through the customer sign-in forms', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/signin',
      payload: { email: `admin:${TEST_ADMIN.username}`, password: TEST_ADMIN.password },
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('admin sign-in limits and configuration', () => {
  it('is rate-limited per address like the other sign-ins', async () => {
    const t = await createTestApp('pglite', { deps: { authRateLimit: 3 } });
    try {
      const attempt = (remoteAddress: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/admin-login',
          payload: TEST_ADMIN,
          remoteAddress,
        });
      for (let i = 0; i < 3; i++) expect((await attempt('10.20.0.1')).statusCode).toBe(200);
      const limited = await attempt('10.20.0.1');
      expect(limited.statusCode).toBe(429);
      expect(limited.json().code).toBe('RATE_LIMITED');
      expect((await attempt('10.20.0.2')).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('answers ADMIN_NOT_CONFIGURED when no admin is configured', async () => {
    const t = await createTestApp('pglite', {
      env: { ADMIN_USERNAME: '', ADMIN_PASSWORD_HASH: '' },
    });
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/admin-login',
        payload: TEST_ADMIN,
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('ADMIN_NOT_CONFIGURED');
    } finally {
      await t.close();
    }
  });

  it('hashes a plain ADMIN_PASSWORD at boot and keeps no plain copy in the config', async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      ADMIN_USERNAME: 'ops',
      ADMIN_PASSWORD: 'a long plain password',
    });
    expect(config.admin?.fromPlainPassword).toBe(true);
    expect(JSON.stringify(config)).not.toContain('a long plain password');
    expect(
      await passwords.verifyPassword('a long plain password', config.admin!.passwordHash),
    ).toBe(true);
    expect(config.statusPasswordHash).toBe(config.admin!.passwordHash);
  });

  it.each([
    [{ ADMIN_USERNAME: 'ops' }, 'ADMIN_USERNAME needs ADMIN_PASSWORD_HASH'],
    [{ ADMIN_PASSWORD: 'a long plain password' }, 'need ADMIN_USERNAME'],
    [{ ADMIN_USERNAME: 'ops', ADMIN_PASSWORD: 'short' }, 'at least 12 characters'],
    [{ ADMIN_USERNAME: 'ops', ADMIN_PASSWORD_HASH: 'plain-text' }, 'is not a scrypt hash'],
    [
      { ADMIN_USERNAME: 'ops', ADMIN_PASSWORD: 'a long plain password', ADMIN_PASSWORD_HASH: 'x' },
      'not both',
    ],
    [{ ADMIN_STATUS_PASSWORD: 'short' }, 'ADMIN_STATUS_PASSWORD must be at least 12'],
  ])('refuses an unusable admin setting %j', (env, message) => {
    expect(() => loadConfig({ NODE_ENV: 'test', ...env })).toThrow(message);
  });

  it('uses ADMIN_STATUS_PASSWORD for the status page when it is set', async () => {
    const config = loadConfig({ NODE_ENV: 'test', ADMIN_STATUS_PASSWORD: 'status only secret' });
    expect(config.admin).toBeNull();
    expect(await passwords.verifyPassword('status only secret', config.statusPasswordHash!)).toBe(
      true,
    );
  });
});
