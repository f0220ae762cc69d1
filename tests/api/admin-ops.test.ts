import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import {
  bearer,
  createTestApp,
  signInAdmin,
  signInLocal,
  TEST_ADMIN,
  type TestApp,
} from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';
import { captureLogLines } from '../helpers/logs.ts';

describe.each(databaseKinds)('admin status and self-test on %s', (kind) => {
  let t: TestApp;
  const { stream, lines } = captureLogLines();

  beforeAll(async () => {
    t = await createTestApp(kind, { env: { LOG_LEVEL: 'info' }, deps: { logStream: stream } });
  });
  afterAll(() => t.close());

  const status = (query = '') => t.app.inject({ url: `/api/admin/status${query}` });

  it.each([
    ['no password', ''],
    ['an empty password', '?password='],
    ['a wrong password', '?password=wrong-password-123'],
  ])('answers 401 with %s', async (_case, query) => {
    const res = await status(query);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('INVALID_STATUS_PASSWORD');
  });

  it('answers the operational status with the password, without an admin session', async () => {
    const res = await status(`?password=${encodeURIComponent(TEST_ADMIN.password)}`);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      database: { ok: true, kind },
      queue: { pending: 0, processing: 0, completed: 0, failed: 0 },
      build: { state: 'idle', liveRelease: null },
      version: t.config.version,
      workerMode: 'inline',
    });
    expect(data.database.latencyMs).toBeGreaterThanOrEqual(0);
    expect(data.uptimeSeconds).toBeGreaterThanOrEqual(0);
  });

  it('keeps the status password out of the logs', async () => {
    await status('?password=typo-status-secret');
    await status(`?password=${encodeURIComponent(TEST_ADMIN.password)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const log = lines.join('\n');
    expect(log).toContain('/api/admin/status');
    expect(log).not.toContain('typo-status-secret');
    expect(log).not.toContain('battery');
  });

  it('reports each subsystem of the self-test with its time', async () => {
    const token = await signInAdmin(t.app);
    const res = await t.app.inject({ url: '/api/admin/test', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    const { ok, checks } = res.json().data;
    expect(checks.map((c: { name: string }) => c.name)).toEqual([
      'database',
      'media',
      'video provider',
      'google sign-in',
      'payments',
      'mail',
    ]);
    for (const check of checks) {
      expect(check, check.name).toMatchObject({ ok: true });
      expect(check.ms).toBeGreaterThanOrEqual(0);
      expect(check.detail.length).toBeGreaterThan(0);
    }
    expect(ok).toBe(true);
    expect(checks[0].detail).toContain(kind);
    expect(checks[4].detail).toContain('local checkout');
    // The database probe was rolled back and the media probe removed: nothing stays behind.
    const leftovers = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from admin_login_failures where key like 'selftest:%'`,
    );
    expect(leftovers).toEqual([{ n: 0 }]);
    expect(await readdir(path.join(t.dataDir, 'media'))).toEqual([]);
  });

  it('reports a broken subsystem as not ok, naming what failed', async () => {
    const token = await signInAdmin(t.app);
    const media = path.join(t.dataDir, 'media');
    await rm(media, { recursive: true, force: true });
    await writeFile(media, 'a file where the media folder should be');
    try {
      const res = await t.app.inject({ url: '/api/admin/test', headers: bearer(token) });
      const { ok, checks } = res.json().data;
      expect(ok).toBe(false);
      const check = checks.find((c: { name: string }) => c.name === 'media');
      expect(check.ok).toBe(false);
      expect(check.detail).toMatch(/EEXIST|ENOTDIR/);
      expect(checks.find((c: { name: string }) => c.name === 'database').ok).toBe(true);
    } finally {
      await rm(media, { force: true });
    }
  });

  it('needs an admin session for the self-test', async () => {
    const customer = await signInLocal(t.app, 'c@example.com', 'C');
    expect((await t.app.inject({ url: '/api/admin/test' })).statusCode).toBe(401);
    const res = await t.app.inject({ url: '/api/admin/test', headers: bearer(customer.token) });
    expect(res.statusCode).toBe(403);
  });
});

describe('admin status settings', () => {
  it('uses ADMIN_STATUS_PASSWORD instead of the admin password when set', async () => {
    const t = await createTestApp('pglite', {
      env: { ADMIN_STATUS_PASSWORD: 'status page secret' },
    });
    try {
      const admin = await t.app.inject({
        url: `/api/admin/status?password=${encodeURIComponent(TEST_ADMIN.password)}`,
      });
      expect(admin.statusCode).toBe(401);
      const own = await t.app.inject({ url: '/api/admin/status?password=status%20page%20secret' });
      expect(own.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('is rate-limited', async () => {
    const t = await createTestApp('pglite', { deps: { authRateLimit: 2 } });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) {
        codes.push((await t.app.inject({ url: '/api/admin/status?password=x' })).statusCode);
      }
      expect(codes).toEqual([401, 401, 429]);
    } finally {
      await t.close();
    }
  });
});
