import { DEFAULT_OPTIONS } from '../../shared/video-options.ts';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../server/core/db.ts';
import { createCreditsService } from '../../server/domains/credits/service.ts';
import { testVideo } from '../fakes/video/test-video.ts';
import { failureMessage, type FailureKind } from '../../server/domains/video/messages.ts';
import type { WorkerOptions } from '../../server/domains/video/worker.ts';
import * as videoRepo from '../../server/domains/video/repository.ts';
import { bearer, createTestApp, creditBalance, signInLocal, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';
import {
  drainQueue,
  fakeProvider,
  grantCredits,
  pngImage,
  requestGeneration,
  routesTo,
  testWorker,
  type MultipartFile,
} from '../helpers/video.ts';
import { VIDEO_COST } from '../../shared/video.ts';

/** A failed task's English error_message, as the refund of VIDEO_COST credits reads. */
const failed = (kind: FailureKind) => failureMessage(kind)(VIDEO_COST).render('en');

describe.each(databaseKinds)('video generation on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const generate = (
    token: string | null,
    fields: Record<string, string>,
    file?: MultipartFile,
    extraHeaders: Record<string, string> = {},
  ) => requestGeneration(t.app, token, fields, file, extraHeaders);
  const balance = (token: string) => creditBalance(t.app, token);
  const worker = (provider = fakeProvider(), extra: Partial<WorkerOptions> = {}) =>
    testWorker(t, {
      providers: { [provider.name]: provider },
      routes: routesTo(provider.name),
      ...extra,
    });
  /** Runs the queue until no task is unfinished. */
  const drain = (w: ReturnType<typeof worker>) => drainQueue(t.database.db, w);

  describe('POST /api/video/generate', () => {
    it('refuses a signed-out visitor with the spec message', async () => {
      const res = await generate(null, { prompt: 'a cat', model: 'veo3' });
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe('Please login before generating a video');
    });

    it.each([
      ['an empty prompt', { prompt: '   ', model: 'veo3' }, 'Please enter a prompt'],
      [
        'image mode without an image',
        { prompt: 'a cat', model: 'veo3-fast-frames' },
        'Image to Video mode requires an image. Please upload an image.',
      ],
      ['an unknown model', { prompt: 'a cat', model: 'sora' }, "Unknown model 'sora'"],
      ['a 2001-character prompt', { prompt: 'x'.repeat(2001), model: 'veo3' }, 'too long'],
    ])('answers 400 for %s and charges nothing', async (_name, fields, message) => {
      const ann = await signInLocal(
        t.app,
        `v400-${Math.random().toString(36).slice(2)}@example.com`,
      );
      await grantCredits(t, ann.user.id, 17);
      const res = await generate(ann.token, fields);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(message);
      expect(await balance(ann.token)).toBe(17);
    });

    it('refuses with 402 and the spec text when credits are below 17, and deducts nothing', async () => {
      const ann = await signInLocal(t.app, 'v402@example.com');
      await grantCredits(t, ann.user.id, 16);
      const res = await generate(ann.token, { prompt: 'a cat', model: 'veo3' });
      expect(res.statusCode).toBe(402);
      expect(res.json().message).toBe(
        'Not enough credits! Generating a Veo 3 video requires 17 credits, you currently have 16 credits',
      );
      expect(await balance(ann.token)).toBe(16);
    });

    it('deducts 17 and queues the task in one step, answering the spec shape', async () => {
      const ann = await signInLocal(t.app, 'vok@example.com');
      await grantCredits(t, ann.user.id, 50);
      const res = await generate(
        ann.token,
        { prompt: 'A lighthouse in a storm', model: 'veo3' },
        undefined,
        {
          'x-user-id': ann.user.id,
          'x-user-email': 'vok@example.com',
        },
      );
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        success: true,
        data: { remainingCredits: 33 },
        message: expect.any(String),
      });
      const { taskId } = res.json().data;
      const status = await t.app.inject({
        url: `/api/video/status/${taskId}`,
        headers: bearer(ann.token),
      });
      expect(status.json().data).toMatchObject({
        id: taskId,
        status: 'pending',
        progress: 0,
        result_url: null,
        model: 'veo3',
      });
      const ledger = await queryRows<{ amount: number; source_type: string }>(
        t.database.db,
        sql`select amount, source_type from credit_transactions where source_id = ${taskId}`,
      );
      expect(ledger).toEqual([{ amount: -17, source_type: 'video_task' }]);
    });

    it('accepts a real PNG in image mode, re-encoded, and refuses a fake image', async () => {
      const ann = await signInLocal(t.app, 'vimg@example.com');
      await grantCredits(t, ann.user.id, 34);
      const ok = await generate(
        ann.token,
        { prompt: 'Animate this', model: 'veo3-fast-frames' },
        { name: 'image', filename: 'red.png', type: 'image/png', data: await pngImage() },
      );
      expect(ok.statusCode).toBe(200);
      const fake = await generate(
        ann.token,
        { prompt: 'Animate this', model: 'veo3-fast-frames' },
        {
          name: 'image',
          filename: 'photo.jpg',
          type: 'image/jpeg',
          data: Buffer.from('<?php echo "not an image"; ?>'),
        },
      );
      expect(fake.statusCode).toBe(400);
      expect(fake.json().message).toBe('Please select a valid image file (JPEG, PNG, GIF, WebP)');
      const big = await generate(
        ann.token,
        { prompt: 'Animate this', model: 'veo3-fast-frames' },
        {
          name: 'image',
          filename: 'big.png',
          type: 'image/png',
          data: Buffer.concat([await pngImage(), Buffer.alloc(11 * 1024 * 1024)]),
        },
      );
      expect(big.statusCode).toBe(413);
      expect(big.json().message).toMatch(/10MB/);
      expect(await balance(ann.token)).toBe(17);
    });

    it('allows at most 3 unfinished tasks per user (429)', async () => {
      const ann = await signInLocal(t.app, 'vcap@example.com');
      await grantCredits(t, ann.user.id, 17 * 5);
      for (let i = 0; i < 3; i++)
        expect((await generate(ann.token, { prompt: `p${i}`, model: 'veo3' })).statusCode).toBe(
          200,
        );
      const fourth = await generate(ann.token, { prompt: 'p4', model: 'veo3' });
      expect(fourth.statusCode).toBe(429);
      expect(fourth.json().message).toMatch(/3 videos in progress/);
      expect(await balance(ann.token)).toBe(34);
    });

    it('one user with credits for 5 sending 30 submits at once: exactly 3 accepted', async () => {
      const ann = await signInLocal(t.app, 'vburst@example.com');
      await grantCredits(t, ann.user.id, 17 * 5);
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          generate(ann.token, { prompt: `burst ${i}`, model: 'veo3' }),
        ),
      );
      const accepted = results.filter((r) => r.statusCode === 200);
      expect(accepted).toHaveLength(3);
      expect(results.filter((r) => r.statusCode >= 500)).toHaveLength(0);
      expect(await balance(ann.token)).toBe(17 * 2);
      expect((await createCreditsService(t.database.db).validate(ann.user.id)).valid).toBe(true);
    });

    it('10 users with credits for 2 sending 3 submits each, all at once: exactly 20 accepted', async () => {
      const users = await Promise.all(
        Array.from({ length: 10 }, (_, i) => signInLocal(t.app, `vten-${i}@example.com`)),
      );
      for (const u of users) await grantCredits(t, u.user.id, 34);
      const results = await Promise.all(
        users.flatMap((u) =>
          [0, 1, 2].map((i) => generate(u.token, { prompt: `ten ${i}`, model: 'veo3' })),
        ),
      );
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(20);
      expect(results.filter((r) => r.statusCode >= 500)).toHaveLength(0);
      for (const u of users) expect(await balance(u.token)).toBe(0);
    });
  });

  describe('status and history', () => {
    it('shows a task only to its owner', async () => {
      const ann = await signInLocal(t.app, 'vown@example.com');
      const bob = await signInLocal(t.app, 'vother@example.com');
      await grantCredits(t, ann.user.id, 17);
      const { taskId } = (await generate(ann.token, { prompt: 'mine', model: 'veo3' })).json().data;
      expect(
        (await t.app.inject({ url: `/api/video/status/${taskId}`, headers: bearer(bob.token) }))
          .statusCode,
      ).toBe(404);
      expect((await t.app.inject({ url: `/api/video/status/${taskId}` })).statusCode).toBe(401);
      expect(
        (await t.app.inject({ url: '/api/video/status/not-a-uuid', headers: bearer(ann.token) }))
          .statusCode,
      ).toBe(400);
    });

    it('history needs a sign-in and lists completed videos newest first, 10 a page', async () => {
      const anon = await t.app.inject({ url: '/api/video/history?page=1&limit=10' });
      expect(anon.statusCode).toBe(401);
      expect(anon.json().message).toBe('Please login first');
    });
  });

  describe('worker', () => {
    it('completes tasks into the media store and lists them in history', async () => {
      const ann = await signInLocal(t.app, 'vwork@example.com');
      await grantCredits(t, ann.user.id, 17 * 3);
      const ids: string[] = [];
      for (const p of ['first', 'second', 'third'])
        ids.push((await generate(ann.token, { prompt: p, model: 'veo3' })).json().data.taskId);
      const provider = fakeProvider();
      await drain(worker(provider));
      for (const id of ids) {
        const s = (
          await t.app.inject({ url: `/api/video/status/${id}`, headers: bearer(ann.token) })
        ).json().data;
        expect(s).toMatchObject({ status: 'completed', progress: 100, error_message: null });
        expect(s.result_url).toMatch(/^\/media\/[0-9a-f]{32}\.mp4$/);
        const media = await t.app.inject({ url: s.result_url, headers: { range: 'bytes=0-3' } });
        expect(media.statusCode).toBe(206);
        expect(media.headers['content-type']).toBe('video/mp4');
      }
      const history = (
        await t.app.inject({ url: '/api/video/history?page=1&limit=2', headers: bearer(ann.token) })
      ).json().data;
      expect(history).toMatchObject({ total: 3, page: 1, pages: 2, limit: 2 });
      expect(history.items.map((i: { prompt: string }) => i.prompt)).toEqual(['third', 'second']);
      expect(['first', 'second', 'third'].map((p) => provider.submits.get(p))).toEqual([1, 1, 1]);
    });

    it('refunds a failed video once, with our message (never the provider text) in error_message', async () => {
      const ann = await signInLocal(t.app, 'vfail@example.com');
      await grantCredits(t, ann.user.id, 17);
      const { taskId } = (
        await generate(ann.token, { prompt: 'blocked prompt', model: 'veo3' })
      ).json().data;
      expect(await balance(ann.token)).toBe(0);
      await drain(worker(fakeProvider({ failFor: () => 'Blocked by the safety filter.' })));
      const s = (
        await t.app.inject({ url: `/api/video/status/${taskId}`, headers: bearer(ann.token) })
      ).json().data;
      expect(s.status).toBe('failed');
      expect(s.error_message).toBe(failed('provider'));
      expect(s.error_message).not.toContain('Blocked by the safety filter');
      const [row] = await queryRows<{ provider_error: string; failure_kind: string }>(
        t.database.db,
        sql`select provider_error, failure_kind from video_tasks where id = ${taskId}`,
      );
      expect(row).toEqual({
        provider_error: 'Blocked by the safety filter.',
        failure_kind: 'provider',
      });
      expect(await balance(ann.token)).toBe(17);
      // Failing it again (another worker, a sweeper) refunds nothing more.
      const { failAndRefund } = await import('../../server/domains/video/service.ts');
      expect(await t.database.db.transaction((tx) => failAndRefund(tx, taskId, 'again'))).toBe(
        false,
      );
      expect(await balance(ann.token)).toBe(17);
      const refunds = await queryRows<{ n: number }>(
        t.database.db,
        sql`select count(*)::int as n from credit_transactions where source_type = 'refund' and source_id = ${taskId}`,
      );
      expect(refunds[0]?.n).toBe(1);
    });

    it('fails and refunds a task past its deadline', async () => {
      const ann = await signInLocal(t.app, 'vlate@example.com');
      await grantCredits(t, ann.user.id, 17);
      const { taskId } = (await generate(ann.token, { prompt: 'slow', model: 'veo3' })).json().data;
      await t.database.db.execute(
        sql`update video_tasks set deadline_at = now() - interval '1 minute' where id = ${taskId}`,
      );
      await drain(worker());
      const s = (
        await t.app.inject({ url: `/api/video/status/${taskId}`, headers: bearer(ann.token) })
      ).json().data;
      expect(s).toMatchObject({
        status: 'failed',
        error_message: failureMessage('deadline')(17).render('en'),
      });
      expect(await balance(ann.token)).toBe(17);
    });

    it('reclaims a task whose worker died (expired lease) and resumes its provider job', async () => {
      const ann = await signInLocal(t.app, 'vcrash@example.com');
      await grantCredits(t, ann.user.id, 17);
      const { taskId } = (await generate(ann.token, { prompt: 'crash me', model: 'veo3' })).json()
        .data;
      const provider = fakeProvider({ polls: 3 });
      // A worker claims the task, submits the job, then "dies" (never renews or finishes).
      const dead = await videoRepo.claimTask(t.database.db, 'dead-worker', 60_000);
      expect(dead?.id).toBe(taskId);
      const jobId = await provider.submit({
        prompt: dead!.prompt,
        mode: 'text',
        model: 'test-model',
        options: DEFAULT_OPTIONS,
        taskId,
        deadlineAt: dead!.deadlineAt,
      });
      await videoRepo.recordSubmit(
        t.database.db,
        taskId,
        {
          provider: 'fake',
          model: 'test-model',
          at: new Date().toISOString(),
          outcome: 'accepted',
        },
        { jobId, requestId: jobId },
      );
      // While the lease holds, nobody else takes it.
      expect(await videoRepo.claimTask(t.database.db, 'other', 60_000)).toBeNull();
      await t.database.db.execute(
        sql`update video_tasks set lease_expires_at = now() - interval '1 second' where id = ${taskId}`,
      );
      await drain(worker(provider));
      const s = (
        await t.app.inject({ url: `/api/video/status/${taskId}`, headers: bearer(ann.token) })
      ).json().data;
      expect(s.status).toBe('completed');
      expect(provider.submits.get('crash me')).toBe(1); // resumed, not submitted again
      expect(await balance(ann.token)).toBe(0);
      const file = path.join(t.dataDir, 'media', path.basename(s.result_url));
      expect((await stat(file)).size).toBeGreaterThan(0);
      expect((await readFile(file)).equals(await testVideo())).toBe(true);
    });
  });
});
