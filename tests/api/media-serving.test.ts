/**
 * Media through the store (issue 18, item 1), as users reach it: /media/… and /uploads/blog/…
 * served from local files with range requests (video seeking), ETags and HEAD; and with
 * S3_BUCKET set, image-mode uploads, results, posters and blog images kept in the bucket (none
 * on the instance's disk) and their addresses redirected to presigned or CDN URLs that play.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../server/core/db.ts';
import { MEDIA_KEYS } from '../../server/core/media-store/types.ts';
import { testVideo } from '../fakes/video/test-video.ts';
import { bearer, createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';
import { freePort } from '../helpers/process.ts';
import { startS3Server, type TestS3Server } from '../helpers/s3.ts';
import {
  drainQueue,
  fakeProvider,
  grantCredits,
  multipart,
  pngImage,
  requestGeneration,
  routesTo,
  testWorker,
} from '../helpers/video.ts';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

/** Files under DATA_DIR/{dir}, or none when it does not exist. */
const filesIn = (dataDir: string, dir: string) =>
  readdir(path.join(dataDir, dir), { recursive: true }).catch(() => [] as string[]);

describe('media from local files', () => {
  const body = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
  const url = '/media/0123456789abcdef0123456789abcdef.mp4';

  async function withObject() {
    t = await createTestApp('pglite');
    await t.app.mediaStore.put(`${MEDIA_KEYS.media}${path.basename(url)}`, body, {
      contentType: 'video/mp4',
    });
    return t;
  }

  it('answers the whole object, a range, a suffix range and an open range', async () => {
    const { app } = await withObject();
    const whole = await app.inject({ url });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    // A customer's video: deleted on request, so cached privately and briefly (issue 34).
    expect(whole.headers['cache-control']).toBe('private, max-age=3600');
    expect(whole.rawPayload.equals(body)).toBe(true);

    const part = await app.inject({ url, headers: { range: 'bytes=10-19' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 10-19/1000');
    expect(part.headers['content-length']).toBe('10');
    expect(part.rawPayload.equals(body.subarray(10, 20))).toBe(true);

    const suffix = await app.inject({ url, headers: { range: 'bytes=-5' } });
    expect(suffix.statusCode).toBe(206);
    expect(suffix.headers['content-range']).toBe('bytes 995-999/1000');
    expect(suffix.rawPayload.equals(body.subarray(995))).toBe(true);

    const open = await app.inject({ url, headers: { range: 'bytes=990-' } });
    expect(open.statusCode).toBe(206);
    expect(open.rawPayload.equals(body.subarray(990))).toBe(true);

    const past = await app.inject({ url, headers: { range: 'bytes=1000-' } });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe('bytes */1000');
  });

  it('revalidates by ETag, answers HEAD without a body, and 404s what is not there', async () => {
    const { app } = await withObject();
    const first = await app.inject({ url });
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await app.inject({ url, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);

    const head = await app.inject({ method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe('1000');
    expect(head.rawPayload.length).toBe(0);

    // A range for a copy that changed since (If-Range): the whole new object instead.
    const stale = await app.inject({
      url,
      headers: { range: 'bytes=0-9', 'if-range': '"stale"' },
    });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.length).toBe(1000);

    expect((await app.inject({ url: '/media/nothing-here.mp4' })).statusCode).toBe(404);
    // Probes and other dot-files in the folder are never public.
    await app.mediaStore.put(`${MEDIA_KEYS.media}.selftest-x.txt`, 'probe', {
      contentType: 'text/plain',
    });
    expect((await app.inject({ url: '/media/.selftest-x.txt' })).statusCode).toBe(404);
  });
});

describe('media in an S3 bucket', () => {
  let s3: TestS3Server;
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(async () => {
    await s3.close();
  });

  it('keeps an image-mode upload and its result in the bucket, and /media redirects to a presigned URL that seeks', async () => {
    t = await createTestApp('pglite', { env: s3.env });
    const app = t.app;
    const user = await signInLocal(app);
    await grantCredits(t, user.user.id, 100);
    const png = await pngImage(320, 180);
    const res = await requestGeneration(
      app,
      user.token,
      { prompt: 'A red square drifting', model: 'veo3-fast-frames' },
      { name: 'image', filename: 'frame.png', type: 'image/png', data: png },
    );
    expect(res.statusCode).toBe(200);
    const { taskId } = res.json().data as { taskId: string };
    // The upload is in the bucket, where a worker on any machine reads it; not on this disk.
    expect(await app.mediaStore.head(`${MEDIA_KEYS.uploads}${taskId}.png`)).not.toBeNull();
    expect(await filesIn(t.dataDir, 'uploads')).toEqual([]);

    const provider = fakeProvider({ name: 'local' });
    const worker = testWorker(t, { providers: { local: provider }, routes: routesTo('local') });
    await drainQueue(t.database.db, worker);
    const job = [...provider.jobs.values()][0]!;
    expect(job.input.image?.data.length).toBeGreaterThan(0);

    const [task] = await queryRows<{ status: string; result_url: string; poster_url: string }>(
      t.database.db,
      sql`select status, result_url, poster_url from video_tasks where id = ${taskId}`,
    );
    expect(task).toMatchObject({ status: 'completed' });
    expect(task!.result_url).toMatch(/^\/media\/[0-9a-f]{32}\.mp4$/);
    expect(task!.poster_url).toMatch(/^\/media\/[0-9a-f]{32}\.jpg$/);
    // The result and poster went to the bucket; the upload was removed once the task ended.
    expect(await filesIn(t.dataDir, 'media')).toEqual([]);
    const key = task!.result_url.slice(1);
    expect((await app.mediaStore.head(key))?.contentType).toBe('video/mp4');
    expect(await app.mediaStore.head(`${MEDIA_KEYS.uploads}${taskId}.png`)).toBeNull();

    const redirect = await app.inject({ url: task!.result_url });
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers['cache-control']).toBe('private, max-age=300');
    const location = redirect.headers.location as string;
    expect(location.startsWith(`${s3.endpoint}/${s3.bucket}/${key}?`)).toBe(true);
    expect(new URL(location).searchParams.get('X-Amz-Expires')).toBe('900');

    // The browser's player follows it and seeks with range requests against the bucket.
    const video = await testVideo();
    const seek = await fetch(location, { headers: { range: 'bytes=100-1099' } });
    expect(seek.status).toBe(206);
    expect(Buffer.from(await seek.arrayBuffer()).equals(video.subarray(100, 1100))).toBe(true);

    // Pages may load media from the bucket's origin (CSP), and from nowhere else new.
    const page = await app.inject({ url: '/no-such-page' });
    const csp = page.headers['content-security-policy'] as string;
    expect(csp).toContain(`media-src 'self' blob: ${s3.endpoint}`);
  });

  it('stores blog images in the bucket and redirects to the CDN when MEDIA_PUBLIC_URL is set', async () => {
    t = await createTestApp('pglite', {
      env: {
        ...s3.env,
        MEDIA_PUBLIC_URL: 'https://cdn.example.com/',
        BLOG_EDITORS: 'ed@example.com',
      },
    });
    const editor = await signInLocal(t.app, 'ed@example.com', 'Ed');
    const body = multipart(
      {},
      { name: 'image', filename: 'a.png', type: 'image/png', data: await pngImage() },
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/blog/upload-image',
      headers: { ...body.headers, ...bearer(editor.token) },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(200);
    const imageUrl = res.json().imageUrl as string;
    expect(imageUrl).toMatch(/^\/uploads\/blog\/[0-9a-f]{32}\.png$/);
    expect(await filesIn(t.dataDir, 'uploads')).toEqual([]);
    expect((await t.app.mediaStore.head(imageUrl.slice(1)))?.contentType).toBe('image/png');

    const redirect = await t.app.inject({ url: imageUrl });
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers.location).toBe(`https://cdn.example.com${imageUrl}`);
    expect(redirect.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('is ready while the bucket answers and leaves rotation when it does not', async () => {
    t = await createTestApp('pglite', { env: s3.env });
    const ready = await t.app.inject({ url: '/api/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().checks).toContainEqual(
      expect.objectContaining({ name: 'media store', ok: true, detail: 'bucket answers' }),
    );
    await t.close();
    const dead = `http://127.0.0.1:${await freePort()}`;
    t = await createTestApp('pglite', { env: { ...s3.env, S3_ENDPOINT: dead } });
    const down = await t.app.inject({ url: '/api/health/ready' });
    expect(down.statusCode).toBe(503);
    expect(down.json().checks).toContainEqual(
      expect.objectContaining({ name: 'media store', ok: false, critical: true }),
    );
  });
});
