/**
 * Finding 3 of issue 34: `Range: bytes=99999999999999999999-` and `bytes=0-99999999999999999999`
 * answered 500 INTERNAL_ERROR (a RangeError from the store's own check of the numbers). A number
 * that is not a safe integer can name no byte of any object: now every such form answers 416 with
 * the object's size, from local files and from S3 alike.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMediaStore } from '../../server/core/media-store/index.ts';
import { sendStoredObject } from '../../server/core/media-store/serve.ts';
import { MEDIA_KEYS, type MediaStore } from '../../server/core/media-store/types.ts';
import { createTestApp, testConfig, type TestApp } from '../helpers/app.ts';
import { startS3Server, type TestS3Server } from '../helpers/s3.ts';

const FORMS = [
  'bytes=99999999999999999999-',
  'bytes=0-99999999999999999999',
  'bytes=-99999999999999999999',
  'bytes=99999999999999999999-99999999999999999999',
  'bytes=9007199254740992-',
];
const body = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
const name = '0123456789abcdef0123456789abcdef.mp4';

describe('giant Range numbers through /media on the app (local files)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    await t.app.mediaStore.put(`${MEDIA_KEYS.media}${name}`, body, { contentType: 'video/mp4' });
  });
  afterAll(() => t?.close());

  it.each(FORMS)('%s answers 416 with the size', async (range) => {
    const res = await t.app.inject({ url: `/media/${name}`, headers: { range } });
    expect(res.statusCode, res.body).toBe(416);
    expect(res.headers['content-range']).toBe('bytes */1000');
  });

  it('an ordinary range still answers 206', async () => {
    const res = await t.app.inject({ url: `/media/${name}`, headers: { range: 'bytes=0-9' } });
    expect(res.statusCode).toBe(206);
  });
});

describe.each(['local', 's3'] as const)(
  'giant Range numbers streamed from the %s store',
  (kind) => {
    let s3: TestS3Server | null = null;
    let dataDir: string;
    let store: MediaStore;
    const app = Fastify();

    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'giant-range-'));
      s3 = kind === 's3' ? await startS3Server() : null;
      const opened = createMediaStore(testConfig(dataDir, s3?.env ?? {}));
      await opened.put(`${MEDIA_KEYS.media}${name}`, body, { contentType: 'video/mp4' });
      // Streamed by this process (as a store without presigned or public URLs would be).
      store = Object.assign(Object.create(opened) as MediaStore, { publicUrl: async () => null });
      app.get('/file', (request, reply) =>
        sendStoredObject(
          request,
          reply,
          store,
          `${MEDIA_KEYS.media}${name}`,
          'private, max-age=3600',
        ),
      );
    });
    afterAll(async () => {
      await app.close();
      await store?.close();
      await s3?.close();
      await rm(dataDir, { recursive: true, force: true });
    });

    it.each(FORMS)('%s answers 416 with the size', async (range) => {
      const res = await app.inject({ url: '/file', headers: { range } });
      expect(res.statusCode, res.body).toBe(416);
      expect(res.headers['content-range']).toBe('bytes */1000');
    });

    it('an ordinary range still answers 206 with its bytes', async () => {
      const res = await app.inject({ url: '/file', headers: { range: 'bytes=10-19' } });
      expect(res.statusCode).toBe(206);
      expect(res.rawPayload.equals(body.subarray(10, 20))).toBe(true);
    });
  },
);
