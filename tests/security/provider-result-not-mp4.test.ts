/**
 * Finding 2 of issue 34: a provider "result" that was a 130-byte HLS playlist naming `file:///…`
 * passed the result check (ffmpeg probed it as a playlist and followed it), the task succeeded and
 * charged 17 credits, and /media/….mp4 served the playlist text. Now the check refuses anything
 * whose first box is not `ftyp`, reads with the MP4 demuxer forced and only the `file` protocol,
 * and checks the video's codec and picture size; such a task fails and is refunded.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFalFake } from '../fakes/fal/index.ts';
import type { FalFake } from '../fakes/fal/types.ts';
import { testVideo } from '../fakes/video/test-video.ts';
import { bearer, createTestApp, creditBalance, signInLocal, type TestApp } from '../helpers/app.ts';
import { expectCreditsInvariant } from '../helpers/credits-invariant.ts';
import { databaseKinds } from '../helpers/database.ts';
import { drainQueue, grantCredits, requestGeneration, testWorker } from '../helpers/video.ts';

/**
 * An HLS playlist whose one segment is a file on our own disk (what the finding's provider sent):
 * here a real 8 s video, so that a check which follows the playlist finds nothing wrong.
 */
async function playlistNaming(dir: string): Promise<Buffer> {
  const local = path.join(dir, 'on-our-disk.mp4');
  await writeFile(local, await testVideo());
  return Buffer.from(
    `#EXTM3U\n#EXT-X-TARGETDURATION:8\n#EXTINF:8.0,\nfile://${local}\n#EXT-X-ENDLIST\n`,
  );
}

describe.each(databaseKinds)('provider results that are not MP4 videos on %s', (kind) => {
  let fake: FalFake;
  let t: TestApp;
  let seq = 0;

  beforeAll(async () => {
    fake = await startFalFake();
    t = await createTestApp(kind, {
      env: {
        ...fake.env,
        VIDEO_ROUTE_TEXT: `fal:${fake.models.text}`,
        VIDEO_ROUTE_IMAGE: `fal:${fake.models.image}`,
        VIDEO_WORKER: 'off',
      },
    });
  }, 30_000);
  afterAll(async () => {
    await expectCreditsInvariant(t.database.db);
    await t?.close();
    await fake?.close();
  });

  /** One task whose result is `bytes`, run to its end: its status, result URL and the balance. */
  async function runWith(bytes: Buffer) {
    fake.video = async () => bytes;
    const user = await signInLocal(t.app, `not-mp4-${kind}-${++seq}@example.com`);
    await grantCredits(t, user.user.id, 17);
    const res = await requestGeneration(t.app, user.token, { prompt: 'a calm sea', model: 'veo3' });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.taskId as string;
    await drainQueue(
      t.database.db,
      testWorker(t, {
        providers: t.app.videoProviders,
        routes: t.config.video.routes,
        breaker: { failures: 1000, openMs: 1000 },
      }),
    );
    const data = (
      await t.app.inject({ url: `/api/video/status/${id}`, headers: bearer(user.token) })
    ).json().data as { status: string; result_url?: string | null };
    return {
      status: data.status,
      resultUrl: data.result_url ?? null,
      balance: await creditBalance(t.app, user.token),
    };
  }

  it('an HLS playlist naming a local file is refused and refunded', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'playlist-'));
    const playlist = await playlistNaming(dir);
    expect(await runWith(playlist)).toEqual({ status: 'failed', resultUrl: null, balance: 17 });
  });

  it('a decodable video in another container (MPEG-TS) is refused', async () => {
    const ts = await testVideo({ format: 'mpegts' });
    expect(await runWith(ts)).toEqual({ status: 'failed', resultUrl: null, balance: 17 });
  });

  it('an MP4 whose picture is no real size (64x36) is refused', async () => {
    const tiny = await testVideo({ size: '64x36' });
    expect(await runWith(tiny)).toEqual({ status: 'failed', resultUrl: null, balance: 17 });
  });

  it('a real MP4 still passes', async () => {
    const result = await runWith(await testVideo());
    expect(result).toMatchObject({ status: 'completed', balance: 0 });
    expect(result.resultUrl).toMatch(/^\/media\/[0-9a-f]{32}\.mp4$/);
  });
});
