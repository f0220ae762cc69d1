/**
 * Issue 36: /v1/videos, /v1/quote and /v1/credits with a developer's key, on PGlite and
 * PostgreSQL. The same video service as the site: the price, the charge, the task, the delete;
 * closed bodies (a misspelt field is a 400 naming it); someone else's video is not found; the
 * key's own cap on unfinished videos.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../server/core/db.ts';
import { API_SCOPES, type ApiScope } from '../../shared/public-api.ts';
import { PRICE_TABLE } from '../../shared/video-options.ts';
import { createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';
import { drainQueue, fakeProvider, grantCredits, routesTo, testWorker } from '../helpers/video.ts';

describe.each(databaseKinds)('/v1 videos on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  let n = 0;
  /** A signed-in user with `credits` and an API key with `scopes`. */
  async function developer(credits: number, scopes: readonly ApiScope[] = API_SCOPES) {
    const session = await signInLocal(t.app, `v1-${kind}-${++n}@example.com`);
    if (credits > 0) await grantCredits(t, session.user.id, credits);
    const created = await t.app.apiKeys.create(session.user.id, {
      name: 'test',
      scopes: [...scopes],
    });
    return { userId: session.user.id, key: created.key };
  }
  const call = (
    key: string,
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    payload?: Record<string, unknown>,
  ) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${key}` },
      ...(payload && { payload }),
    });
  const balanceOf = async (userId: string) =>
    (
      await queryRows<{ credits: number }>(
        t.database.db,
        sql`select credits from users where id = ${userId}`,
      )
    )[0]!.credits;
  const worker = () =>
    testWorker(t, {
      providers: { local: fakeProvider({ name: 'local' }) },
      routes: routesTo('local', 'local'),
    });

  it('POST /v1/videos charges the price and answers 202 with the video; GET reads it back', async () => {
    const dev = await developer(40);
    const res = await call(dev.key, 'POST', '/v1/videos', {
      prompt: 'a red fox in the snow',
      resolution: '1080p',
      metadata: { order: '42' },
    });
    expect(res.statusCode).toBe(202);
    expect(res.headers['x-request-id']).toBeTruthy();
    const video = res.json();
    const price = PRICE_TABLE.video + PRICE_TABLE.add.resolution['1080p'];
    expect(video).toMatchObject({
      object: 'video',
      status: 'pending',
      mode: 'text',
      model: 'veo3',
      prompt: 'a red fox in the snow',
      credits_charged: price,
      metadata: { order: '42' },
      options: { resolution: '1080p', aspect_ratio: '16:9' },
      result_url: null,
      deleted: false,
    });
    expect(await balanceOf(dev.userId)).toBe(40 - price);

    const read = await call(dev.key, 'GET', `/v1/videos/${video.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(video);
  });

  it('refuses an unknown or misspelt field with a 400 naming it, and charges nothing', async () => {
    const dev = await developer(40);
    const res = await call(dev.key, 'POST', '/v1/videos', { prompt: 'fox', aspect_ratoi: '9:16' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'INVALID_REQUEST', param: 'aspect_ratoi' });
    const bad = await call(dev.key, 'POST', '/v1/videos', { prompt: 'fox', aspect_ratio: '4:3' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.param).toBe('aspect_ratio');
    const mode = await call(dev.key, 'POST', '/v1/videos', {
      prompt: 'fox',
      last_frame_url: 'https://example.com/a.png',
    });
    expect(mode.statusCode).toBe(400);
    expect(mode.json().error).toMatchObject({
      code: 'OPTION_NEEDS_IMAGE_MODE',
      param: 'last_frame_url',
    });
    const image = await call(dev.key, 'POST', '/v1/videos', { prompt: 'fox', mode: 'image' });
    expect(image.json().error).toMatchObject({ code: 'IMAGE_REQUIRED', param: 'image_url' });
    expect(await balanceOf(dev.userId)).toBe(40);
  });

  it("another user's video, an unknown id and a deleted video are 404 VIDEO_NOT_FOUND", async () => {
    const ann = await developer(20);
    const bob = await developer(0);
    const id = (await call(ann.key, 'POST', '/v1/videos', { prompt: 'mine' })).json().id;
    for (const url of [`/v1/videos/${id}`, '/v1/videos/not-a-uuid']) {
      const res = await call(bob.key, 'GET', url);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('VIDEO_NOT_FOUND');
    }
    expect((await call(bob.key, 'DELETE', `/v1/videos/${id}`)).json().error.code).toBe(
      'VIDEO_NOT_FOUND',
    );
    expect((await call(bob.key, 'GET', '/v1/videos')).json().data).toEqual([]);
  });

  it("a polled video is read once per process and read afresh after any change to its owner's tasks", async () => {
    const dev = await developer(40);
    const video = (
      await call(dev.key, 'POST', '/v1/videos', { prompt: 'a kite over dunes' })
    ).json();
    const get = async () => (await call(dev.key, 'GET', `/v1/videos/${video.id}`)).json();
    expect((await get()).progress).toBe(0);
    const setProgress = (progress: number) =>
      t.database.db.execute(
        sql`update video_tasks set progress = ${progress} where id = ${video.id}`,
      );
    // Without the change notice the process keeps answering its copy: the read is cached. (On
    // PostgreSQL the create's notice also comes through the listening connection, a moment
    // later, and may drop the first copy: read and change again until a copy holds. Without a
    // cache the read would answer 40 every time.)
    await t.database.db.execute(
      sql`alter table video_tasks disable trigger video_tasks_notify_change`,
    );
    try {
      await expect
        .poll(
          async () => {
            await setProgress(0);
            await get();
            await setProgress(40);
            return (await get()).progress;
          },
          { timeout: 5000 },
        )
        .toBe(0);
    } finally {
      await t.database.db.execute(
        sql`alter table video_tasks enable trigger video_tasks_notify_change`,
      );
    }
    // Any change (here typed by hand, as another process would) drops it at once.
    await setProgress(60);
    await expect.poll(async () => (await get()).progress, { timeout: 2000 }).toBe(60);
    // A delete through the API is seen by the next read.
    await t.database.db.execute(
      sql`update video_tasks set status = 'completed' where id = ${video.id}`,
    );
    expect((await call(dev.key, 'DELETE', `/v1/videos/${video.id}`)).statusCode).toBe(204);
    expect((await call(dev.key, 'GET', `/v1/videos/${video.id}`)).statusCode).toBe(404);
  });

  it("an id that is none of the caller's videos is remembered as such until the owner's tasks change", async () => {
    const dev = await developer(40);
    const video = (await call(dev.key, 'POST', '/v1/videos', { prompt: 'a gull at dusk' })).json();
    const status = async () => (await call(dev.key, 'GET', `/v1/videos/${video.id}`)).statusCode;
    const setDeleted = (deleted: boolean) =>
      t.database.db.execute(
        sql`update video_tasks set deleted_at = ${deleted ? sql`now()` : null} where id = ${video.id}`,
      );
    // The notice a change to the owner's tasks sends (the trigger's), sent by hand.
    const announce = () =>
      t.database.db.execute(sql`select pg_notify('video_change', ${dev.userId})`);
    // Changes typed by hand without the notice: a client polling an id it cannot see (a deleted
    // video, a mistyped id) is answered from this process's copy, not the database's.
    await t.database.db.execute(
      sql`alter table video_tasks disable trigger video_tasks_notify_change`,
    );
    try {
      await setDeleted(true);
      await announce();
      await expect.poll(status, { timeout: 2000 }).toBe(404);
      await setDeleted(false);
      expect(await status()).toBe(404);
      // The notice drops it, as it drops a found video's copy.
      await announce();
      await expect.poll(status, { timeout: 2000 }).toBe(200);
    } finally {
      await t.database.db.execute(
        sql`alter table video_tasks enable trigger video_tasks_notify_change`,
      );
    }
  });

  it('lists videos newest first in keyset pages, filters by status, leaves deleted ones out', async () => {
    const dev = await developer(17 * 4);
    const ids: string[] = [];
    for (const prompt of ['one', 'two', 'three']) {
      ids.push((await call(dev.key, 'POST', '/v1/videos', { prompt })).json().id);
    }
    const first = (await call(dev.key, 'GET', '/v1/videos?limit=2')).json();
    expect(first.data.map((v: { id: string }) => v.id)).toEqual([ids[2], ids[1]]);
    expect(first.has_more).toBe(true);
    const second = (
      await call(dev.key, 'GET', `/v1/videos?limit=2&cursor=${first.next_cursor}`)
    ).json();
    expect(second).toMatchObject({ has_more: false, next_cursor: null });
    expect(second.data.map((v: { id: string }) => v.id)).toEqual([ids[0]]);

    // Unfinished videos cannot be deleted (as on the site); finished ones leave the list.
    const early = await call(dev.key, 'DELETE', `/v1/videos/${ids[1]}`);
    expect(early.statusCode).toBe(409);
    await drainQueue(t.database.db, worker());
    const completed = (await call(dev.key, 'GET', '/v1/videos?status=completed')).json();
    expect(completed.data).toHaveLength(3);
    expect(completed.data[0].result_url).toMatch(/^http:\/\/localhost:4321\/media\//);
    expect((await call(dev.key, 'GET', '/v1/videos?status=pending')).json().data).toEqual([]);
    expect((await call(dev.key, 'DELETE', `/v1/videos/${ids[1]}`)).statusCode).toBe(204);
    expect((await call(dev.key, 'GET', `/v1/videos/${ids[1]}`)).statusCode).toBe(404);
    const after = (await call(dev.key, 'GET', '/v1/videos')).json();
    expect(after.data.map((v: { id: string }) => v.id)).toEqual([ids[2], ids[0]]);
    expect((await call(dev.key, 'GET', '/v1/videos?cursor=bogus')).statusCode).toBe(400);
  });

  it('POST /v1/videos/{id}/extend continues a completed video at the extension price', async () => {
    const dev = await developer(17 + PRICE_TABLE.extend);
    const source = (await call(dev.key, 'POST', '/v1/videos', { prompt: 'a fox runs' })).json();
    const early = await call(dev.key, 'POST', `/v1/videos/${source.id}/extend`, {
      prompt: 'too soon',
    });
    expect(early.statusCode).toBe(409);
    await drainQueue(t.database.db, worker());
    const res = await call(dev.key, 'POST', `/v1/videos/${source.id}/extend`, {
      prompt: 'the fox stops and looks back',
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({
      extends_video_id: source.id,
      credits_charged: PRICE_TABLE.extend,
      duration_seconds: source.duration_seconds + 7,
    });
    expect(await balanceOf(dev.userId)).toBe(0);
    const other = await developer(20);
    const stranger = await call(other.key, 'POST', `/v1/videos/${source.id}/extend`, {
      prompt: 'not mine',
    });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().error.code).toBe('VIDEO_NOT_FOUND');
    expect(
      (
        await call(dev.key, 'POST', `/v1/videos/${source.id}/extend`, {
          prompt: 'x',
          resolution: '1080p',
        })
      ).json().error.param,
    ).toBe('resolution');
  });

  it('GET /v1/quote prices the options and says whether the balance pays it (any scope)', async () => {
    const dev = await developer(20, ['credits:read']);
    const cheap = (await call(dev.key, 'GET', '/v1/quote')).json();
    expect(cheap).toMatchObject({ credits: PRICE_TABLE.video, balance: 20, affordable: true });
    const dear = (
      await call(dev.key, 'GET', '/v1/quote?mode=image&resolution=1080p&last_frame=true')
    ).json();
    const price =
      PRICE_TABLE.video + PRICE_TABLE.add.resolution['1080p'] + PRICE_TABLE.add.last_frame;
    expect(dear).toMatchObject({ credits: price, affordable: false });
    expect(dear.options).toMatchObject({ resolution: '1080p', last_frame: true });
    const ext = (await call(dev.key, 'GET', '/v1/quote?extend=true')).json();
    expect(ext.credits).toBe(PRICE_TABLE.extend);
    const refused = await call(dev.key, 'GET', '/v1/quote?mode=image&reference_images=2');
    expect(refused.statusCode).toBe(400);
    expect((await call(dev.key, 'GET', '/v1/quote?colour=red')).json().error.param).toBe('colour');
  });

  it('GET /v1/credits answers the balance and the newest ledger rows', async () => {
    const dev = await developer(30);
    await call(dev.key, 'POST', '/v1/videos', { prompt: 'charged' });
    const res = await call(dev.key, 'GET', '/v1/credits');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.balance).toBe(13);
    expect(body.transactions[0]).toMatchObject({
      amount: -17,
      balance_after: 13,
      source_type: 'video_task',
    });
    expect(body.transactions[0]).not.toHaveProperty('source_id');
    expect(body.transactions).toHaveLength(2);
    const reader = await developer(0, ['videos:read']);
    expect((await call(reader.key, 'GET', '/v1/credits')).statusCode).toBe(403);
  });

  it("caps a key's unfinished videos (429), and each key has its own cap", async () => {
    const dev = await developer(17 * 7);
    for (let i = 0; i < 5; i += 1) {
      expect((await call(dev.key, 'POST', '/v1/videos', { prompt: `cap ${i}` })).statusCode).toBe(
        202,
      );
    }
    const over = await call(dev.key, 'POST', '/v1/videos', { prompt: 'one too many' });
    expect(over.statusCode).toBe(429);
    expect(over.json().error.code).toBe('TOO_MANY_TASKS');
    expect(await balanceOf(dev.userId)).toBe(17 * 2);
    const second = await t.app.apiKeys.create(dev.userId, {
      name: 'two',
      scopes: ['videos:write'],
    });
    expect((await call(second.key, 'POST', '/v1/videos', { prompt: 'other key' })).statusCode).toBe(
      202,
    );
  });

  it('needs the scope: a read-only key cannot start or delete a video', async () => {
    const dev = await developer(20, ['videos:read']);
    const res = await call(dev.key, 'POST', '/v1/videos', { prompt: 'nope' });
    expect(res.statusCode).toBe(403);
    expect(await balanceOf(dev.userId)).toBe(20);
  });
});
