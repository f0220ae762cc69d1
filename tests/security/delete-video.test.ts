/**
 * Issue 34, finding 10 (a customer cannot delete anything): a video was public behind its random
 * name, cached `public, max-age=31536000, immutable`, and could not be deleted. Now
 * `DELETE /api/video/{taskId}` deletes the owner's finished video: its result, poster and upload
 * leave the media store (files and bucket alike), it leaves history, and its addresses answer
 * 404; another user's delete and an unknown id answer 404 and change nothing; a video still being
 * made is refused (409); credits and the ledger are untouched. A customer's media is cached
 * privately for an hour, while blog images keep their year-long public caching.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import { MEDIA_KEYS } from '../../server/core/media-store/types.ts';
import { bearer, createTestApp, creditBalance, signInLocal, type TestApp } from '../helpers/app.ts';
import { expectCreditsInvariant } from '../helpers/credits-invariant.ts';
import { databaseKinds } from '../helpers/database.ts';
import { startS3Server, type TestS3Server } from '../helpers/s3.ts';
import {
  drainQueue,
  fakeProvider,
  grantCredits,
  pngImage,
  requestGeneration,
  routesTo,
  testWorker,
} from '../helpers/video.ts';

const USER_MEDIA_CACHE = 'private, max-age=3600';
const PUBLIC_MEDIA_CACHE = 'public, max-age=31536000, immutable';

/** Whether a file exists on disk. */
const onDisk = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.close();
});

describe.each(databaseKinds)('DELETE /api/video/{taskId} on %s', (kind) => {
  describe.each(['files', 'bucket'] as const)('with media in %s', (storeKind) => {
    let t: TestApp;
    let owner: { token: string; user: { id: string } };
    let stranger: { token: string; user: { id: string } };

    beforeAll(async () => {
      t = await createTestApp(kind, { env: storeKind === 'bucket' ? s3.env : {} });
      owner = await signInLocal(t.app, `owner-${storeKind}@example.com`, 'Olive Owner');
      stranger = await signInLocal(t.app, `stranger-${storeKind}@example.com`, 'Sam Stranger');
      await grantCredits(t, owner.user.id, 100);
    });
    afterAll(() => t.close());

    const del = (token: string, taskId: string) =>
      t.app.inject({ method: 'DELETE', url: `/api/video/${taskId}`, headers: bearer(token) });
    const taskRow = async (taskId: string) =>
      (
        await queryRows<{
          status: string;
          prompt: string;
          result_url: string | null;
          poster_url: string | null;
          deleted_at: string | null;
        }>(t.database.db, sql`select * from video_tasks where id = ${taskId}`)
      )[0];
    const ledgerRows = () =>
      queryRows<{ id: string }>(
        t.database.db,
        sql`select id from credit_transactions where user_id = ${owner.user.id} order by id`,
      );

    /** A finished image-mode video of the owner: its id and its objects' store keys. */
    async function finishedVideo(prompt: string) {
      const res = await requestGeneration(
        t.app,
        owner.token,
        { prompt, model: 'veo3-fast-frames' },
        { name: 'image', filename: 'frame.png', type: 'image/png', data: await pngImage() },
      );
      expect(res.statusCode, res.body).toBe(200);
      const taskId = (res.json().data as { taskId: string }).taskId;
      const provider = fakeProvider({ name: 'local' });
      await drainQueue(
        t.database.db,
        testWorker(t, { providers: { local: provider }, routes: routesTo('local') }),
      );
      const task = await taskRow(taskId);
      expect(task).toMatchObject({ status: 'completed' });
      const upload = `${MEDIA_KEYS.uploads}${taskId}.png`;
      // The worker removed the upload when the task ended; one left by a crash goes too.
      await t.app.mediaStore.put(upload, await pngImage(), { contentType: 'image/png' });
      return {
        taskId,
        resultUrl: task!.result_url!,
        posterUrl: task!.poster_url!,
        keys: [task!.result_url!.slice(1), task!.poster_url!.slice(1), upload],
      };
    }

    /** What a browser gets at a /media address: the bytes, or where the bucket has them. */
    async function fetchMedia(url: string) {
      const res = await t.app.inject({ url });
      if (storeKind === 'files') {
        return { status: res.statusCode, cacheControl: res.headers['cache-control'] };
      }
      expect(res.statusCode).toBe(302);
      const location = String(res.headers.location);
      // A presigned address that expires, never a permanent public one.
      expect(new URL(location).searchParams.get('X-Amz-Expires')).toBe('900');
      const direct = await fetch(location);
      await direct.arrayBuffer();
      return { status: direct.status, cacheControl: res.headers['cache-control'] };
    }

    it('deletes the result, poster and upload from the store and answers 404 afterwards', async () => {
      const video = await finishedVideo('A lighthouse blinking at dusk');
      for (const key of video.keys) expect(await t.app.mediaStore.head(key), key).not.toBeNull();
      if (storeKind === 'files') {
        expect(await onDisk(path.join(t.dataDir, video.keys[0]!))).toBe(true);
      }
      expect((await fetchMedia(video.resultUrl)).status).toBe(200);
      const balance = await creditBalance(t.app, owner.token);
      const ledger = await ledgerRows();

      const res = await del(owner.token, video.taskId);
      expect(res.statusCode, res.body).toBe(204);
      expect(res.body).toBe('');

      for (const key of video.keys) expect(await t.app.mediaStore.head(key), key).toBeNull();
      if (storeKind === 'files') {
        for (const key of video.keys) expect(await onDisk(path.join(t.dataDir, key))).toBe(false);
      }
      expect((await fetchMedia(video.resultUrl)).status).toBe(404);
      expect((await fetchMedia(video.posterUrl)).status).toBe(404);

      const status = await t.app.inject({
        url: `/api/video/status/${video.taskId}`,
        headers: bearer(owner.token),
      });
      expect(status.statusCode).toBe(404);
      const history = await t.app.inject({
        url: '/api/video/history?page=1&limit=50',
        headers: bearer(owner.token),
      });
      expect(history.statusCode).toBe(200);
      expect(history.body).not.toContain(video.taskId);
      expect((await del(owner.token, video.taskId)).statusCode).toBe(404);

      // The row stays for the ledger that names it, with nothing of the video left.
      expect(await taskRow(video.taskId)).toMatchObject({
        prompt: '',
        result_url: null,
        poster_url: null,
        deleted_at: expect.anything(),
      });
      // Deleting is not a refund: the balance and the ledger are as they were.
      expect(await creditBalance(t.app, owner.token)).toBe(balance);
      expect(await ledgerRows()).toEqual(ledger);
      await expectCreditsInvariant(t.database.db);
    });

    it('answers 404 to another user and to an unknown id, and keeps the video', async () => {
      const video = await finishedVideo('A paper boat on a rainy street');
      for (const id of [video.taskId, randomUUID(), 'history', 'not-a-task']) {
        const res = await del(id === video.taskId ? stranger.token : owner.token, id);
        expect(res.statusCode, `${id}: ${res.body}`).toBe(404);
        expect(res.json()).toMatchObject({ success: false, code: 'TASK_NOT_FOUND' });
      }
      const res = await del(stranger.token, video.taskId);
      expect(res.json().message).toMatch(/belongs to you/);
      for (const key of video.keys) expect(await t.app.mediaStore.head(key), key).not.toBeNull();
      expect((await fetchMedia(video.resultUrl)).status).toBe(200);
      expect(await taskRow(video.taskId)).toMatchObject({ status: 'completed', deleted_at: null });
      const anonymous = await t.app.inject({ method: 'DELETE', url: `/api/video/${video.taskId}` });
      expect(anonymous.statusCode).toBe(401);
    });

    it('refuses a video still being made with 409 and a message saying when it can be deleted', async () => {
      const res = await requestGeneration(t.app, owner.token, {
        prompt: 'A kite over the dunes',
        model: 'veo3',
      });
      expect(res.statusCode, res.body).toBe(200);
      const taskId = (res.json().data as { taskId: string }).taskId;
      const refused = await del(owner.token, taskId);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ success: false, code: 'TASK_UNFINISHED' });
      expect(refused.json().message).toMatch(/still being made/);
      const chinese = await t.app.inject({
        method: 'DELETE',
        url: `/api/video/${taskId}`,
        headers: { ...bearer(owner.token), 'accept-language': 'zh-CN' },
      });
      expect(chinese.json().message).toMatch(/还在生成中/);
      expect(await taskRow(taskId)).toMatchObject({ status: 'pending', deleted_at: null });
      // Once it has finished, it can go.
      await drainQueue(
        t.database.db,
        testWorker(t, {
          providers: { local: fakeProvider({ name: 'local' }) },
          routes: routesTo('local'),
        }),
      );
      expect((await del(owner.token, taskId)).statusCode).toBe(204);
      await expectCreditsInvariant(t.database.db);
    });

    it('caches a customer’s video and poster privately, and blog images publicly for a year', async () => {
      const video = await finishedVideo('A slow pan over a sleeping city');
      const blogImage = `${MEDIA_KEYS.blogUploads}${randomUUID().replaceAll('-', '')}.png`;
      await t.app.mediaStore.put(blogImage, await pngImage(), {
        contentType: 'image/png',
        cacheControl: PUBLIC_MEDIA_CACHE,
      });
      if (storeKind === 'files') {
        expect((await fetchMedia(video.resultUrl)).cacheControl).toBe(USER_MEDIA_CACHE);
        expect((await fetchMedia(video.posterUrl)).cacheControl).toBe(USER_MEDIA_CACHE);
        const blog = await t.app.inject({ url: `/${blogImage}` });
        expect(blog.statusCode).toBe(200);
        expect(blog.headers['cache-control']).toBe(PUBLIC_MEDIA_CACHE);
      } else {
        // The redirect is private and shorter than the presigned URL; the object, stored with
        // its header, is private too wherever the bucket serves it.
        expect((await fetchMedia(video.resultUrl)).cacheControl).toBe('private, max-age=300');
        const direct = await fetch(
          String((await t.app.inject({ url: video.resultUrl })).headers.location),
        );
        await direct.arrayBuffer();
        expect(direct.headers.get('cache-control')).toBe(USER_MEDIA_CACHE);
        const blog = await fetch(
          String((await t.app.inject({ url: `/${blogImage}` })).headers.location),
        );
        await blog.arrayBuffer();
        expect(blog.headers.get('cache-control')).toBe(PUBLIC_MEDIA_CACHE);
      }
    });
  });
});
