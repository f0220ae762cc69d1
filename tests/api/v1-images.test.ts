/**
 * Issue 36: the images of POST /v1/videos. URLs go through the guarded fetcher (a test's fake is
 * reachable only through OUTBOUND_ALLOW_HOSTS; loopback otherwise is refused before any request),
 * with redirects followed and re-checked and a size cap; base64 is decoded strictly; a user who
 * cannot pay is refused before anything is fetched.
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import { MAX_IMAGE_BYTES } from '../../shared/video.ts';
import { createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';
import { grantCredits, pngImage } from '../helpers/video.ts';

/** A web server that counts the requests it gets, by path. */
async function imageHost(png: Buffer) {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/fox.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    if (req.url === '/moved') return res.writeHead(302, { location: '/fox.png' }).end();
    const to = /^\/to\?u=(.+)$/.exec(req.url ?? '')?.[1];
    if (to) return res.writeHead(307, { location: decodeURIComponent(to) }).end();
    if (req.url === '/huge.png') return res.writeHead(200).end(Buffer.alloc(MAX_IMAGE_BYTES + 1));
    res.writeHead(404).end('no');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    hits,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    host: `127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe.each(databaseKinds)('/v1 video images on %s', (kind) => {
  let t: TestApp;
  let png: Buffer;
  let allowed: Awaited<ReturnType<typeof imageHost>>;
  let private_: Awaited<ReturnType<typeof imageHost>>;
  beforeAll(async () => {
    png = await pngImage(64, 48);
    allowed = await imageHost(png);
    private_ = await imageHost(png);
    t = await createTestApp(kind, { env: { OUTBOUND_ALLOW_HOSTS: allowed.host } });
  });
  afterAll(async () => {
    await t.close();
    await allowed.close();
    await private_.close();
  });

  let n = 0;
  let lastUserId = '';
  async function developerKey(credits: number) {
    const session = await signInLocal(t.app, `img-${kind}-${++n}@example.com`);
    lastUserId = session.user.id;
    if (credits > 0) await grantCredits(t, session.user.id, credits);
    return (await t.app.apiKeys.create(session.user.id, { name: 'img', scopes: ['videos:write'] }))
      .key;
  }
  const create = (key: string, payload: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/videos',
      headers: { authorization: `Bearer ${key}` },
      payload,
    });

  it('image mode takes a first frame by URL from an allowed host, redirects followed', async () => {
    const key = await developerKey(40);
    const res = await create(key, {
      prompt: 'the fox',
      mode: 'image',
      image_url: allowed.url('/moved'),
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ mode: 'image', model: 'veo3-fast-frames' });
    expect(allowed.hits).toEqual(['/moved', '/fox.png']);
  });

  it('refuses a loopback URL without the allowance before sending anything (400)', async () => {
    const key = await developerKey(40);
    const res = await create(key, {
      prompt: 'x',
      mode: 'image',
      image_url: private_.url('/fox.png'),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'IMAGE_URL_REFUSED', param: 'image_url' });
    // A redirect to it from an allowed host is refused at that hop.
    const hop = allowed.url(`/to?u=${encodeURIComponent(private_.url('/fox.png'))}`);
    const redirected = await create(key, { prompt: 'x', mode: 'image', image_url: hop });
    expect(redirected.json().error.code).toBe('IMAGE_URL_REFUSED');
    const ftp = await create(key, { prompt: 'x', mode: 'image', image_url: 'ftp://example.com/a' });
    expect(ftp.json().error.code).toBe('IMAGE_URL_REFUSED');
    expect(private_.hits).toEqual([]);
  });

  it('answers 400 IMAGE_URL_UNREACHABLE for a missing image and 413 for one over the cap', async () => {
    const key = await developerKey(40);
    const missing = await create(key, {
      prompt: 'x',
      mode: 'image',
      image_url: allowed.url('/gone.png'),
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatchObject({
      code: 'IMAGE_URL_UNREACHABLE',
      param: 'image_url',
    });
    const huge = await create(key, {
      prompt: 'x',
      mode: 'image',
      image_url: allowed.url('/fox.png'),
      last_frame_url: allowed.url('/huge.png'),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error).toMatchObject({ code: 'IMAGE_TOO_LARGE', param: 'last_frame_url' });
  });

  it('takes base64 images (a data: URI too) and refuses text that is not strict base64', async () => {
    const key = await developerKey(60);
    const image = await create(key, {
      prompt: 'inline',
      mode: 'image',
      image_base64: png.toString('base64'),
      last_frame_base64: `data:image/png;base64,${png.toString('base64')}`,
    });
    expect(image.statusCode).toBe(202);
    expect(image.json().options.last_frame).toBe(true);
    const refs = await create(key, {
      prompt: 'with references',
      reference_images_base64: [png.toString('base64'), png.toString('base64')],
    });
    expect(refs.statusCode).toBe(202);
    expect(refs.json().options.reference_images).toBe(2);
    const bad = await create(key, { prompt: 'x', mode: 'image', image_base64: 'not base64!' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({
      code: 'IMAGE_BASE64_INVALID',
      param: 'image_base64',
    });
    const both = await create(key, {
      prompt: 'x',
      mode: 'image',
      image_base64: png.toString('base64'),
      image_url: allowed.url('/fox.png'),
    });
    expect(both.json().error.code).toBe('IMAGE_INPUT_CONFLICT');
  });

  it('refuses a user who cannot pay with 402 before any image is fetched', async () => {
    const key = await developerKey(5);
    const before = allowed.hits.length;
    const res = await create(key, {
      prompt: 'broke',
      mode: 'image',
      image_url: allowed.url('/fox.png'),
    });
    expect(res.statusCode).toBe(402);
    expect(res.json().error.code).toBe('INSUFFICIENT_CREDITS');
    expect(allowed.hits.length).toBe(before);
  });

  it('refuses a key at its cap of unfinished videos with 429 before any image is fetched', async () => {
    const key = await developerKey(17 * 8);
    // The key's default cap is 5 unfinished videos; no worker runs here, so they stay pending.
    for (let i = 0; i < 5; i++) {
      expect((await create(key, { prompt: `cap ${i}` })).statusCode).toBe(202);
    }
    const before = allowed.hits.length;
    const res = await create(key, {
      prompt: 'over',
      mode: 'image',
      image_url: allowed.url('/fox.png'),
    });
    expect(res.statusCode, res.body).toBe(429);
    expect(res.json().error.code).toBe('TOO_MANY_TASKS');
    expect(allowed.hits.length).toBe(before);
  });

  it('takes a webhook_url the delivery guard accepts, once the user has a request secret', async () => {
    const key = await developerKey(40);
    const refused = await create(key, { prompt: 'x', webhook_url: private_.url('/hook') });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({
      code: 'WEBHOOK_URL_INVALID',
      param: 'webhook_url',
    });
    const hook = allowed.url('/hook');
    const unsigned = await create(key, { prompt: 'x', webhook_url: hook });
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json().error).toMatchObject({
      code: 'WEBHOOK_SECRET_MISSING',
      param: 'webhook_url',
    });
    await t.app.webhooks.requestSecret(lastUserId);
    const res = await create(key, { prompt: 'x', webhook_url: hook });
    expect(res.statusCode).toBe(202);
    const [row] = await queryRows<{ webhook_url: string }>(
      t.database.db,
      sql`select webhook_url from video_tasks where id = ${res.json().id}`,
    );
    expect(row!.webhook_url).toBe(hook);
  });
});
