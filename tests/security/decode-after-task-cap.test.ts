/**
 * Finding 7 of issue 34: a user with 3 unfinished tasks still had a 7000×7000 PNG decoded,
 * re-encoded and stored before the 429, and /api/video/generate had no rate limit of its own.
 * Now the credit check and the unfinished-task check both come before the upload is read, and
 * the route limits each user (not each address) per minute.
 */
import type sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';
import { grantCredits, pngImage, requestGeneration } from '../helpers/video.ts';

/** Every call of sharp() anywhere in the server: each one opens an image for decoding. */
const sharpCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock('sharp', async (importOriginal) => {
  const real = (await importOriginal<{ default: typeof sharp }>()).default;
  const counted = (...args: Parameters<typeof real>) => {
    sharpCalls.count += 1;
    return real(...args);
  };
  return { default: Object.assign(counted, real) };
});

describe.each(databaseKinds)('generate checks before image work on %s', (kind) => {
  let t: TestApp;
  let seq = 0;
  let big: Buffer;

  beforeAll(async () => {
    // Tasks stay unfinished: no worker runs.
    t = await createTestApp(kind, { env: { VIDEO_WORKER: 'off' } });
    big = await pngImage(3000, 3000);
  }, 60_000);
  afterAll(() => t?.close());

  async function customerWithTasks(unfinished: number) {
    const user = await signInLocal(t.app, `cap-${kind}-${++seq}@example.com`);
    await grantCredits(t, user.user.id, 17 * (unfinished + 1));
    for (let i = 0; i < unfinished; i += 1) {
      const res = await requestGeneration(t.app, user.token, {
        prompt: `clip ${i}`,
        model: 'veo3',
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    return user;
  }

  it('a user at the unfinished-task cap gets 429 and no image is decoded', async () => {
    const user = await customerWithTasks(3);
    const before = sharpCalls.count;
    const res = await requestGeneration(
      t.app,
      user.token,
      { prompt: 'one more', model: 'veo3-fast-frames' },
      { name: 'image', filename: 'big.png', type: 'image/png', data: big },
    );
    expect(res.statusCode, res.body).toBe(429);
    expect(res.json().code).toBe('TOO_MANY_TASKS');
    expect(sharpCalls.count - before).toBe(0);
  });

  it('each user has a per-minute limit of their own on /api/video/generate', async () => {
    const user = await signInLocal(t.app, `burst-${kind}@example.com`);
    // No credits: every request is refused (402) but still counted by the limit.
    const statuses: number[] = [];
    for (let i = 0; i < 14; i += 1) {
      const res = await requestGeneration(t.app, user.token, { prompt: 'x', model: 'veo3' });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 12).every((s) => s === 402)).toBe(true);
    expect(statuses.slice(12)).toEqual([429, 429]);
    // Another user, from the same address, is not limited by the first one's requests.
    const other = await signInLocal(t.app, `burst-other-${kind}@example.com`);
    const res = await requestGeneration(t.app, other.token, { prompt: 'x', model: 'veo3' });
    expect(res.statusCode).toBe(402);
    // And a refusal names the wait.
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/video/generate',
      headers: { ...bearer(user.token), 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x--\r\n',
    });
    expect(refused.statusCode).toBe(429);
  });
});
