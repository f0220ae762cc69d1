/**
 * Workers as separate processes on one PostgreSQL database (PGlite allows one process, so these
 * run only when TEST_DATABASE_URL is set, as in CI): SIGKILL mid-task, and two workers sharing
 * the queue.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import { startFalFake, type FalFake } from '../fakes/fal/index.ts';
import { createTestApp, creditBalance, signInLocal, type TestApp } from '../helpers/app.ts';
import { grantCredits, requestGeneration } from '../helpers/video.ts';

const root = path.resolve(import.meta.dirname, '../..');

describe.skipIf(!process.env.TEST_DATABASE_URL)('video workers as processes on PostgreSQL', () => {
  let fal: FalFake;
  let t: TestApp;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    fal = await startFalFake();
    t = await createTestApp('postgres');
  });
  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    await t.close();
    await fal.close();
  });

  function startWorker(extraEnv: Record<string, string> = {}) {
    const child = spawn(process.execPath, ['server/worker.ts'], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        DATABASE_URL: t.database.url!,
        DATA_DIR: t.dataDir,
        ...fal.env,
        VIDEO_ROUTE_TEXT: `fal:${fal.models.text}`,
        VIDEO_ROUTE_IMAGE: `fal:${fal.models.image}`,
        VIDEO_POLL_MS: '50',
        VIDEO_LEASE_SECONDS: '2',
        VIDEO_WORKER_CONCURRENCY: '3',
        LOG_LEVEL: 'warn',
        ...extraEnv,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(child);
    return child;
  }

  const submit = async (token: string, prompt: string) => {
    const res = await requestGeneration(t.app, token, { prompt, model: 'veo3' });
    expect(res.statusCode).toBe(200);
    return res.json().data.taskId as string;
  };
  const tasks = () =>
    queryRows<{ id: string; status: string; provider_job_id: string | null }>(
      t.database.db,
      sql`select id, status, provider_job_id from video_tasks`,
    );
  const waitFor = async (check: () => Promise<boolean>, ms: number) => {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('timed out');
  };
  /** Jobs fal accepted (and would bill) for a prompt. */
  const submitsOf = (prompt: string) => fal.jobs.filter((j) => j.prompt === prompt).length;

  it('a worker killed mid-task (SIGKILL): the task finishes after restart, charged once, submitted once', async () => {
    const ann = await signInLocal(t.app, 'kill@example.com');
    await grantCredits(t, ann.user.id, 17);
    fal.pollsUntilDone = 1_000_000; // keeps running until we let it finish
    const taskId = await submit(ann.token, 'survive a crash');
    const first = startWorker();
    await waitFor(
      async () => (await tasks()).some((x) => x.id === taskId && x.provider_job_id !== null),
      20_000,
    );
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));

    fal.pollsUntilDone = 1;
    startWorker();
    await waitFor(
      async () => (await tasks()).find((x) => x.id === taskId)?.status === 'completed',
      30_000,
    );
    expect(submitsOf('survive a crash')).toBe(1);
    expect(await creditBalance(t.app, ann.token)).toBe(0);
  }, 60_000);

  it('two workers process 20 tasks exactly once each', async () => {
    fal.pollsUntilDone = 2;
    const users = await Promise.all(
      Array.from({ length: 7 }, (_, i) => signInLocal(t.app, `pair-${i}@example.com`)),
    );
    for (const u of users) await grantCredits(t, u.user.id, 17 * 3);
    const prompts: string[] = [];
    for (let i = 0; i < 20; i++) {
      const prompt = `pair task ${i}`;
      prompts.push(prompt);
      await submit(users[i % 7]!.token, prompt);
    }
    startWorker();
    startWorker();
    await waitFor(
      async () => (await tasks()).filter((x) => x.status === 'completed').length >= 21,
      45_000,
    );
    for (const p of prompts) expect(submitsOf(p)).toBe(1);
    const ledger = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from credit_transactions where source_type = 'refund'`,
    );
    expect(ledger[0]?.n).toBe(0);
  }, 60_000);
});
