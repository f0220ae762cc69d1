/**
 * Issue 35: a video's creative options through the API, on PGlite and PostgreSQL. The quote and
 * the charge are one price; a failure refunds exactly the charge; options, end frames, reference
 * images and extensions reach the provider and survive a worker crash; every refusal is a 400
 * with a code and a message naming the option, before anything is charged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../server/core/db.ts';
import * as videoRepo from '../../server/domains/video/repository.ts';
import { DEFAULT_OPTIONS, PRICE_TABLE, videoPrice } from '../../shared/video-options.ts';
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

const png = async (name: string, color = { r: 20, g: 90, b: 200 }): Promise<MultipartFile> => ({
  name,
  filename: `${name}.png`,
  type: 'image/png',
  data: await pngImage(64, 48, color),
});

describe.each(databaseKinds)('video options on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  let n = 0;
  /** A signed-in user with `credits`. */
  async function user(credits: number) {
    const s = await signInLocal(t.app, `opt-${kind}-${++n}@example.com`);
    await grantCredits(t, s.user.id, credits);
    return s;
  }
  const quote = (query: string, headers: Record<string, string> = {}) =>
    t.app.inject({ url: `/api/video/quote?${query}`, headers });
  const status = async (token: string, taskId: string) =>
    (await t.app.inject({ url: `/api/video/status/${taskId}`, headers: bearer(token) })).json()
      .data;
  /** The charge and refund rows of a task. */
  const ledger = (taskId: string) =>
    queryRows<{ amount: number; source_type: string }>(
      t.database.db,
      sql`select amount, source_type from credit_transactions where source_id = ${taskId}
          order by created_at`,
    );
  // The app's route is the local renderer; this worker's double answers in its name, so the
  // tasks are routed by the local descriptor's capabilities and finish in milliseconds.
  const provider = fakeProvider({
    name: 'local',
    failFor: (p) => (p.startsWith('FAIL') ? 'x' : null),
  });
  const worker = () =>
    testWorker(t, { providers: { local: provider }, routes: routesTo('local', 'local') });
  const inputOf = (prompt: string) =>
    [...provider.jobs.values()].find((j) => j.input.prompt === prompt)!.input;

  it('with no option the charge, the task and its answer are the spec clip, as before', async () => {
    const ann = await user(17);
    const res = await requestGeneration(t.app, ann.token, { prompt: 'plain clip', model: 'veo3' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.remainingCredits).toBe(0);
    const task = await status(ann.token, res.json().data.taskId);
    expect(task).toMatchObject({
      options: {
        aspect_ratio: '16:9',
        resolution: '720p',
        tier: 'standard',
        negative_prompt: null,
        seed: null,
        last_frame: false,
        reference_images: 0,
      },
      source_task_id: null,
      duration_seconds: 8,
      credits_charged: 17,
    });
    const [row] = await queryRows<{ options: unknown }>(
      t.database.db,
      sql`select options from video_tasks where id = ${task.id}`,
    );
    expect(row!.options).toBeNull();
    await drainQueue(t.database.db, worker());
    expect(inputOf('plain clip').options).toEqual(DEFAULT_OPTIONS);
  });

  it('quotes each option from the price table, without a session', async () => {
    const cases: Array<[string, number]> = [
      ['model=veo3', PRICE_TABLE.video],
      [
        'model=veo3&aspect_ratio=9:16&resolution=1080p',
        PRICE_TABLE.video + PRICE_TABLE.add.resolution['1080p'],
      ],
      ['model=veo3&tier=fast', PRICE_TABLE.video + PRICE_TABLE.add.tier.fast],
      ['model=veo3&reference_images=2', PRICE_TABLE.video + PRICE_TABLE.add.reference_images],
      ['model=veo3-fast-frames&last_frame=1', PRICE_TABLE.video + PRICE_TABLE.add.last_frame],
      ['model=veo3&seed=42&negative_prompt=rain', PRICE_TABLE.video],
    ];
    for (const [query, credits] of cases) {
      const res = await quote(query);
      expect(res.statusCode, query).toBe(200);
      expect(res.json().data.credits, query).toBe(credits);
    }
    expect(PRICE_TABLE.video).toBe(17);
  });

  it.each([
    ['aspect_ratio=4:3', 'OPTION_INVALID', 'aspect_ratio'],
    ['resolution=4k', 'OPTION_INVALID', 'resolution'],
    ['tier=ultra', 'OPTION_INVALID', 'tier'],
    ['seed=-1', 'SEED_INVALID', 'seed'],
    ['seed=4294967296', 'SEED_INVALID', 'seed'],
    [`negative_prompt=${'x'.repeat(501)}`, 'NEGATIVE_PROMPT_TOO_LONG', 'negative_prompt'],
    ['last_frame=1', 'OPTION_NEEDS_IMAGE_MODE', 'last_frame'],
    ['reference_images=4', 'TOO_MANY_REFERENCE_IMAGES', 'reference_images'],
    ['extend_task_id=nope', 'EXTEND_SOURCE_NOT_FOUND', 'extend_task_id'],
  ])('refuses %s with 400 %s naming the option, in both languages', async (query, code, option) => {
    const en = await quote(`model=veo3&${query}`);
    expect(en.statusCode).toBe(400);
    expect(en.json().code).toBe(code);
    expect(en.json().message).toContain(option);
    const zh = await quote(`model=veo3&${query}`, { 'accept-language': 'zh-CN' });
    expect(zh.json().code).toBe(code);
    expect(zh.json().message).toContain(option);
    expect(zh.json().message).toMatch(/[\u4e00-\u9fff]/);
  });

  it('charges what it quoted, shows the options and sends them to the provider', async () => {
    const fields = {
      aspect_ratio: '9:16',
      resolution: '1080p',
      tier: 'fast',
      seed: '4294967295',
      negative_prompt: 'no text on screen',
    };
    const quoted = (await quote(`model=veo3&${new URLSearchParams(fields)}`)).json().data.credits;
    expect(quoted).toBe(
      videoPrice({
        ...DEFAULT_OPTIONS,
        aspectRatio: '9:16',
        resolution: '1080p',
        tier: 'fast',
        seed: 1,
        negativePrompt: 'x',
      }),
    );
    const ann = await user(50);
    const res = await requestGeneration(t.app, ann.token, {
      prompt: 'tall clip',
      model: 'veo3',
      ...fields,
    });
    expect(res.statusCode).toBe(200);
    const { taskId } = res.json().data;
    expect(await creditBalance(t.app, ann.token)).toBe(50 - quoted);
    expect(await ledger(taskId)).toEqual([{ amount: -quoted, source_type: 'video_task' }]);
    await drainQueue(t.database.db, worker());
    const task = await status(ann.token, taskId);
    expect(task.status).toBe('completed');
    expect(task.options).toEqual({
      aspect_ratio: '9:16',
      resolution: '1080p',
      tier: 'fast',
      negative_prompt: 'no text on screen',
      seed: 4294967295,
      last_frame: false,
      reference_images: 0,
    });
    expect(task.credits_charged).toBe(quoted);
    expect(inputOf('tall clip').options).toMatchObject({
      aspectRatio: '9:16',
      resolution: '1080p',
      tier: 'fast',
      seed: 4294967295,
      negativePrompt: 'no text on screen',
    });
    const history = await t.app.inject({ url: '/api/video/history', headers: bearer(ann.token) });
    expect(history.json().data.items[0]).toMatchObject({ id: taskId, options: task.options });
  });

  it('refunds exactly the charge of an optioned video that failed', async () => {
    const ann = await user(40);
    const res = await requestGeneration(t.app, ann.token, {
      prompt: 'FAIL wide',
      model: 'veo3',
      resolution: '1080p',
    });
    const { taskId } = res.json().data;
    const charged = PRICE_TABLE.video + PRICE_TABLE.add.resolution['1080p'];
    expect(await creditBalance(t.app, ann.token)).toBe(40 - charged);
    await drainQueue(t.database.db, worker());
    expect((await status(ann.token, taskId)).status).toBe('failed');
    expect(await creditBalance(t.app, ann.token)).toBe(40);
    expect(await ledger(taskId)).toEqual([
      { amount: -charged, source_type: 'video_task' },
      { amount: charged, source_type: 'refund' },
    ]);
  });

  it('says the actual price when credits are short, and charges nothing', async () => {
    const ann = await user(20);
    const res = await requestGeneration(
      t.app,
      ann.token,
      { prompt: 'a cat', model: 'veo3', resolution: '1080p' },
      [await png('reference_images')],
    );
    const price =
      PRICE_TABLE.video + PRICE_TABLE.add.resolution['1080p'] + PRICE_TABLE.add.reference_images;
    expect(res.statusCode).toBe(402);
    expect(res.json().message).toBe(
      `Not enough credits! Generating a Veo 3 video requires ${price} credits, you currently have 20 credits`,
    );
    expect(await creditBalance(t.app, ann.token)).toBe(20);
    // An end frame sent before the first frame (as the generator sends them) is in the price.
    const frames = await requestGeneration(
      t.app,
      ann.token,
      { prompt: 'ends', model: 'veo3-fast-frames', resolution: '1080p' },
      [await png('last_frame'), await png('image')],
    );
    expect(frames.statusCode).toBe(402);
    expect(frames.json().message).toContain(
      `requires ${PRICE_TABLE.video + PRICE_TABLE.add.resolution['1080p'] + PRICE_TABLE.add.last_frame} credits`,
    );
  });

  it('sends an end frame and reference images, and removes them when the task ends', async () => {
    const ann = await user(100);
    const first = await requestGeneration(
      t.app,
      ann.token,
      { prompt: 'from red to green', model: 'veo3-fast-frames' },
      [await png('image', { r: 220, g: 0, b: 0 }), await png('last_frame', { r: 0, g: 220, b: 0 })],
    );
    expect(first.statusCode).toBe(200);
    const refs = await requestGeneration(
      t.app,
      ann.token,
      { prompt: 'same mug twice', model: 'veo3' },
      [await png('reference_images'), await png('reference_images', { r: 200, g: 200, b: 0 })],
    );
    expect(refs.statusCode).toBe(200);
    await drainQueue(t.database.db, worker());
    const ends = inputOf('from red to green');
    expect(ends.options.lastFrame).toBe(true);
    expect(ends.lastFrame?.data.length).toBeGreaterThan(0);
    expect(ends.image?.data.equals(ends.lastFrame!.data)).toBe(false);
    const withRefs = inputOf('same mug twice');
    expect(withRefs.options.referenceImages).toBe(2);
    expect(withRefs.referenceImages).toHaveLength(2);
    for (const id of [first.json().data.taskId, refs.json().data.taskId]) {
      for (const name of [`${id}.png`, `${id}-last.png`, `${id}-ref1.png`, `${id}-ref2.png`]) {
        expect(await t.app.mediaStore.get(`uploads/${name}`), name).toBeNull();
      }
    }
  });

  it('refuses a fourth reference image, an end frame in text mode, a second first frame and an unknown field before charging', async () => {
    const ann = await user(100);
    const four = await requestGeneration(
      t.app,
      ann.token,
      { prompt: 'too many', model: 'veo3' },
      await Promise.all([1, 2, 3, 4].map(() => png('reference_images'))),
    );
    expect(four.statusCode).toBe(400);
    expect(four.json().code).toBe('TOO_MANY_REFERENCE_IMAGES');
    const last = await requestGeneration(t.app, ann.token, { prompt: 'text end', model: 'veo3' }, [
      await png('last_frame'),
    ]);
    expect(last.json().code).toBe('OPTION_NEEDS_IMAGE_MODE');
    const twice = await requestGeneration(
      t.app,
      ann.token,
      { prompt: 'two firsts', model: 'veo3-fast-frames' },
      [await png('image'), await png('image')],
    );
    expect(twice.json().code).toBe('TOO_MANY_PARTS');
    // A misspelt option is refused, not ignored into a default video that is charged anyway.
    const typo = await requestGeneration(t.app, ann.token, {
      prompt: 'tall',
      model: 'veo3',
      aspect_ration: '9:16',
    });
    expect(typo.statusCode).toBe(400);
    expect(typo.json()).toMatchObject({ code: 'UNEXPECTED_FIELD' });
    expect(typo.json().message).toContain("'aspect_ration'");
    expect(await creditBalance(t.app, ann.token)).toBe(100);
  });

  it('keeps the options of a task whose worker died, and the next worker sends them', async () => {
    const ann = await user(30);
    const res = await requestGeneration(t.app, ann.token, {
      prompt: 'crash with options',
      model: 'veo3',
      aspect_ratio: '9:16',
      seed: '7',
    });
    const { taskId } = res.json().data;
    // A worker claims the task and dies before submitting (its lease runs out).
    const dead = await videoRepo.claimTask(t.database.db, 'dead-worker', 60_000);
    expect(dead?.id).toBe(taskId);
    // Its lease runs out (moved into the past rather than waited for).
    await t.database.db.execute(
      sql`update video_tasks set lease_expires_at = now() - interval '1 second' where id = ${taskId}`,
    );
    await drainQueue(t.database.db, worker());
    expect(inputOf('crash with options').options).toMatchObject({ aspectRatio: '9:16', seed: 7 });
    expect((await status(ann.token, taskId)).status).toBe('completed');
  });

  it('extends a finished video: one clip of its length + 7 s, linked to its source', async () => {
    const ann = await user(100);
    const source = await requestGeneration(t.app, ann.token, {
      prompt: 'a tall tower',
      model: 'veo3',
      aspect_ratio: '9:16',
    });
    const sourceId = source.json().data.taskId;
    // Not finished yet: refused, nothing charged.
    const early = await requestGeneration(t.app, ann.token, {
      prompt: 'keep climbing',
      model: 'veo3',
      extend_task_id: sourceId,
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('EXTEND_SOURCE_NOT_READY');
    await drainQueue(t.database.db, worker());

    const shape = await requestGeneration(t.app, ann.token, {
      prompt: 'keep climbing',
      model: 'veo3',
      extend_task_id: sourceId,
      aspect_ratio: '16:9',
    });
    expect(shape.statusCode).toBe(400);
    expect(shape.json().code).toBe('EXTEND_SHAPE_CONFLICT');
    expect(shape.json().message).toContain('aspect_ratio');

    const before = await creditBalance(t.app, ann.token);
    const res = await requestGeneration(t.app, ann.token, {
      prompt: 'keep climbing',
      model: 'veo3',
      extend_task_id: sourceId,
    });
    expect(res.statusCode).toBe(200);
    const { taskId } = res.json().data;
    expect(await creditBalance(t.app, ann.token)).toBe(before - PRICE_TABLE.extend);
    await drainQueue(t.database.db, worker());
    const input = inputOf('keep climbing');
    expect(input.options).toMatchObject({ extend: true, aspectRatio: '9:16' });
    expect(input.sourceVideo?.durationSeconds).toBe(8);
    expect(input.sourceVideo!.data.subarray(4, 8).toString('latin1')).toBe('ftyp');
    const task = await status(ann.token, taskId);
    expect(task).toMatchObject({
      status: 'completed',
      source_task_id: sourceId,
      duration_seconds: 15,
      credits_charged: PRICE_TABLE.extend,
    });
    const items = (
      await t.app.inject({ url: '/api/video/history', headers: bearer(ann.token) })
    ).json().data.items as Array<{ id: string; source_task_id: string | null }>;
    expect(items.map((i) => [i.id, i.source_task_id])).toEqual([
      [taskId, sourceId],
      [sourceId, null],
    ]);
  });

  it('deleting a video blanks its negative prompt and removes an end frame or reference left behind', async () => {
    const ann = await user(40);
    const res = await requestGeneration(
      t.app,
      ann.token,
      { prompt: 'private words', model: 'veo3', negative_prompt: 'my secret', seed: '3' },
      [await png('reference_images')],
    );
    const { taskId } = res.json().data;
    await drainQueue(t.database.db, worker());
    // As a worker that crashed before its clean-up would leave it.
    await t.app.mediaStore.put(`uploads/${taskId}-ref1.png`, Buffer.from('x'), {
      contentType: 'image/png',
    });
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/video/${taskId}`,
      headers: bearer(ann.token),
    });
    expect(del.statusCode).toBe(204);
    expect(await t.app.mediaStore.get(`uploads/${taskId}-ref1.png`)).toBeNull();
    const [row] = await queryRows<{ options: Record<string, unknown> }>(
      t.database.db,
      sql`select options from video_tasks where id = ${taskId}`,
    );
    expect(row!.options).toMatchObject({ negativePrompt: null, seed: 3, referenceImages: 1 });
  });

  it("refuses to extend someone else's video as an unknown one", async () => {
    const owner = await user(30);
    const res = await requestGeneration(t.app, owner.token, { prompt: 'mine', model: 'veo3' });
    await drainQueue(t.database.db, worker());
    const other = await user(30);
    const steal = await requestGeneration(t.app, other.token, {
      prompt: 'theirs',
      model: 'veo3',
      extend_task_id: res.json().data.taskId,
    });
    expect(steal.statusCode).toBe(404);
    expect(steal.json().code).toBe('EXTEND_SOURCE_NOT_FOUND');
    expect(await creditBalance(t.app, other.token)).toBe(30);
  });
});

describe.each(databaseKinds)('options no route can make, on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    // fal's Veo 3 (not 3.1) makes only the spec clip: its descriptor says so.
    t = await createTestApp(kind, {
      env: {
        VIDEO_ROUTE_TEXT: 'fal:fal-ai/veo3',
        VIDEO_ROUTE_IMAGE: 'local:local',
        FAL_KEY: 'k:s',
      },
    });
  });
  afterAll(() => t.close());

  it('answers 400 naming the option, in the quote and the generate, and charges nothing', async () => {
    const q = await t.app.inject({ url: '/api/video/quote?model=veo3&aspect_ratio=9:16' });
    expect(q.statusCode).toBe(400);
    expect(q.json().code).toBe('OPTION_UNSUPPORTED');
    expect(q.json().message).toContain('aspect_ratio = 9:16');
    const ann = await signInLocal(t.app, `nocap-${kind}@example.com`);
    await grantCredits(t, ann.user.id, 30);
    const res = await requestGeneration(t.app, ann.token, {
      prompt: 'vertical',
      model: 'veo3',
      aspect_ratio: '9:16',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('OPTION_UNSUPPORTED');
    expect(await creditBalance(t.app, ann.token)).toBe(30);
    // The default still goes through.
    expect((await t.app.inject({ url: '/api/video/quote?model=veo3' })).json().data.credits).toBe(
      17,
    );
  });
});
