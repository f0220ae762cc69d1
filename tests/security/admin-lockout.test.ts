/**
 * Finding 8 (issue 16), admin lockout: failures from one address must not lock the admin out
 * from another, and while an address is locked the status endpoint (whose password is the admin
 * password unless ADMIN_STATUS_PASSWORD is set) must not tell a right password from a wrong one.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ADDRESS_LOCKOUT_FAILURES,
  LOCKOUT_MS,
  USERNAME_LOCKOUT_FAILURES,
} from '../../server/domains/admin/lockout-policy.ts';
import { createTestApp, TEST_ADMIN, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';

describe.each(databaseKinds)('admin lockout on %s', (kind) => {
  let t: TestApp;
  // The sign-in's clock: every test starts after the locks and runs of the one before ran out.
  let clock = new Date();

  beforeAll(async () => {
    t = await createTestApp(kind, { deps: { now: () => clock } });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    clock = new Date(clock.getTime() + LOCKOUT_MS + 60_000);
  });

  const login = (payload: object, remoteAddress: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/admin-login', payload, remoteAddress });
  const status = (password: string, remoteAddress: string) =>
    t.app.inject({
      url: `/api/admin/status?password=${encodeURIComponent(password)}`,
      remoteAddress,
    });
  const wrong = { username: TEST_ADMIN.username, password: 'not the password' };
  const failFrom = async (address: string, times = ADDRESS_LOCKOUT_FAILURES) => {
    for (let i = 0; i < times; i++) expect((await login(wrong, address)).statusCode).toBe(401);
  };

  it('locks the address that failed, and the right password still signs in from another', async () => {
    await failFrom('10.40.0.1');
    const locked = await login(TEST_ADMIN, '10.40.0.1');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('ADMIN_LOCKED');

    const elsewhere = await login(TEST_ADMIN, '10.40.0.2');
    expect(elsewhere.statusCode).toBe(200);
    expect(elsewhere.json().data.admin).toEqual({ username: TEST_ADMIN.username });
  });

  it('answers the status endpoint of a locked address the same for right and wrong passwords', async () => {
    await failFrom('10.41.0.1');
    const right = await status(TEST_ADMIN.password, '10.41.0.1');
    const bad = await status('not the password', '10.41.0.1');
    expect(right.statusCode).toBe(429);
    expect({ status: right.statusCode, body: right.json() }).toEqual({
      status: bad.statusCode,
      body: bad.json(),
    });
    // Another address is not locked: the monitor keeps working.
    expect((await status(TEST_ADMIN.password, '10.41.0.2')).statusCode).toBe(200);
  });

  it('counts wrong status passwords like failed sign-ins: they lock the address for both', async () => {
    for (let i = 0; i < ADDRESS_LOCKOUT_FAILURES; i++) {
      expect((await status(`guess-${i}`, '10.42.0.1')).statusCode).toBe(401);
    }
    expect((await status(TEST_ADMIN.password, '10.42.0.1')).statusCode).toBe(429);
    expect((await login(TEST_ADMIN, '10.42.0.1')).statusCode).toBe(429);
    expect((await login(TEST_ADMIN, '10.42.0.2')).statusCode).toBe(200);
  });

  it('treats an IPv6 /64 as one address, so rotating within it does not reset the count', async () => {
    for (let i = 1; i <= ADDRESS_LOCKOUT_FAILURES; i++) {
      expect((await login(wrong, `2001:db8:40:1::${i}`)).statusCode).toBe(401);
    }
    expect((await login(TEST_ADMIN, '2001:db8:40:1:abcd::99')).statusCode).toBe(429);
    expect((await login(TEST_ADMIN, '2001:db8:40:2::1')).statusCode).toBe(200);
  });

  it(`locks a username everywhere only after ${USERNAME_LOCKOUT_FAILURES} failures from many addresses`, async () => {
    // A guessing run spread over many addresses, each staying under its own limit.
    const perAddress = ADDRESS_LOCKOUT_FAILURES - 1;
    const addresses = Math.ceil(USERNAME_LOCKOUT_FAILURES / perAddress);
    let failures = 0;
    for (let a = 0; a < addresses && failures < USERNAME_LOCKOUT_FAILURES - 1; a++) {
      for (let i = 0; i < perAddress && failures < USERNAME_LOCKOUT_FAILURES - 1; i++) {
        expect((await login(wrong, `10.43.${a}.1`)).statusCode).toBe(401);
        failures += 1;
      }
    }
    // One failure short of the username's limit: a clean address still signs in.
    expect((await login(TEST_ADMIN, '10.43.200.1')).statusCode).toBe(200);
    expect((await login(wrong, '10.43.201.1')).statusCode).toBe(401);
    const locked = await login(TEST_ADMIN, '10.43.202.1');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('ADMIN_LOCKED');
  });
});
