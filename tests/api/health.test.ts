/**
 * Health for load balancers (issue 18, item 5): /api/health/live touches nothing but the process;
 * /api/health/ready needs the database and a writable media store, reports the queue's lag
 * without failing on it, and answers 503 from the moment shutdown begins; /api/health pings the
 * database at most once a second (issue 33).
 */
import path from 'node:path';
import { rm, writeFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { buildTestApp, createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, databaseKinds } from '../helpers/database.ts';
import { grantCredits, requestGeneration } from '../helpers/video.ts';

describe.each(databaseKinds)('health on %s', (kind) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  /** An app whose database ping is counted, and can be made to fail. */
  async function appWithPing() {
    const database = await createTestDatabase(kind);
    const ping = { calls: 0, up: true };
    const counted = {
      ...database,
      ping: async () => {
        ping.calls += 1;
        return ping.up && (await database.ping());
      },
    };
    t = await buildTestApp(counted);
    return { app: t.app, ping };
  }

  it('live answers 200 without touching the database, even when it is down', async () => {
    const { app, ping } = await appWithPing();
    ping.up = false;
    const res = await app.inject({ url: '/api/health/live' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, status: 'ok' });
    expect(ping.calls).toBe(0);
    const ready = await app.inject({ url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({
      status: 'not_ready',
      checks: [{ name: 'database', ok: false, critical: true }],
    });
  });

  it('health shares one database ping among the requests of a second, and reports an outage after it', async () => {
    const { app, ping } = await appWithPing();
    // The reuse window is read from the clock: move the clock instead of waiting a second.
    vi.useFakeTimers({ toFake: ['Date'] });
    onTestFinished(() => void vi.useRealTimers());
    // A burst, as a monitor or a flood of anonymous requests sends it: one ping answers all.
    const burst = await Promise.all(
      Array.from({ length: 20 }, () => app.inject({ url: '/api/health' })),
    );
    expect(burst.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect((await app.inject({ url: '/api/health' })).json()).toMatchObject({ database: 'up' });
    expect(ping.calls).toBe(1);
    ping.up = false;
    vi.setSystemTime(Date.now() + 1100);
    const down = await app.inject({ url: '/api/health' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ success: false, status: 'degraded', database: 'down' });
    expect(ping.calls).toBe(2);
  });

  it('ready: database, media store and queue all fine', async () => {
    t = await createTestApp(kind);
    const res = await t.app.inject({ url: '/api/health/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      status: 'ready',
      checks: [
        { name: 'database', ok: true },
        { name: 'media store', ok: true, detail: 'writable' },
        { name: 'video queue', ok: true, critical: false, detail: 'oldest due task waiting 0 s' },
      ],
    });
  });

  it('ready reports a lagging queue but stays in rotation (more API instances would not drain it)', async () => {
    t = await createTestApp(kind);
    const ann = await signInLocal(t.app, 'lag@example.com');
    await grantCredits(t, ann.user.id, 17);
    expect(
      (await requestGeneration(t.app, ann.token, { prompt: 'wait', model: 'veo3' })).statusCode,
    ).toBe(200);
    await t.database.db.execute(
      sql`update video_tasks set run_after = now() - interval '10 minutes'`,
    );
    const res = await t.app.inject({ url: '/api/health/ready' });
    expect(res.statusCode).toBe(200);
    const queue = res.json().checks.find((c: { name: string }) => c.name === 'video queue');
    expect(queue.ok).toBe(false);
    expect(queue.detail).toMatch(/^oldest due task waiting (599|6\d\d) s$/);
  });

  it('ready answers 503 when the media store cannot be written', async () => {
    t = await createTestApp(kind);
    // A file where the media folder should be: nothing can be stored (root ignores modes).
    const mediaDir = path.join(t.dataDir, 'media');
    await rm(mediaDir, { recursive: true, force: true });
    await writeFile(mediaDir, 'not a folder');
    const res = await t.app.inject({ url: '/api/health/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json().checks).toContainEqual(
      expect.objectContaining({ name: 'media store', ok: false, critical: true }),
    );
  });

  it('ready answers 503 from the moment shutdown begins; live still answers', async () => {
    t = await createTestApp(kind);
    t.app.beginDraining();
    const ready = await t.app.inject({ url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ success: false, status: 'draining' });
    expect((await t.app.inject({ url: '/api/health/live' })).statusCode).toBe(200);
  });
});
