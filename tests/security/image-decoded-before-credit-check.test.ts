/**
 * Finding 13 of issue 16: a user with 0 credits made the server decode twenty 6300×6300 PNGs
 * (+180 MB) because the image was read and re-encoded before the balance was looked at. Now the
 * session and the balance are checked before the upload is read, images over a pixel limit are
 * refused from their header, and decodes across the process wait their turn in a bounded queue.
 */
import { connect, type AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { imageDecodes, MAX_INPUT_PIXELS } from '../../server/core/images.ts';
import { bearer, createTestApp, creditBalance, signInLocal, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';
import { grantCredits, multipart, pngImage, requestGeneration } from '../helpers/video.ts';

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

/** A PNG that declares `width`×`height` pixels and carries almost no data: only its header counts. */
function pngHeaderOnly(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Sends the start of a request and waits for the first answer's status and body. */
function answerBeforeBodyEnds(port: number, head: string, start: Buffer, timeoutMs = 3000) {
  return new Promise<{ status: number | null; body: string }>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received);
      resolve({
        status: status ? Number(status[1]) : null,
        body: received.slice(received.indexOf('\r\n\r\n') + 4),
      });
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('data', (chunk) => {
      received += chunk.toString();
      if (/\r\n\r\n[\s\S]*\}$/.test(received)) finish();
    });
    socket.on('error', finish);
    socket.write(Buffer.concat([Buffer.from(head), start]));
  });
}

describe('Image decoded before the credit check', () => {
  describe.each(databaseKinds)('on %s', (kind) => {
    let t: TestApp;
    let port: number;
    beforeAll(async () => {
      t = await createTestApp(kind, { env: { BLOG_EDITORS: 'pics@example.com' } });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = (t.app.server.address() as AddressInfo).port;
    });
    afterAll(() => t.close());

    const imageFields = { prompt: 'Animate this', model: 'veo3-fast-frames' };
    const user = (credits: number) =>
      signInLocal(t.app, `img-${randomUUID()}@example.com`).then(async (u) => {
        if (credits) await grantCredits(t, u.user.id, credits);
        return u;
      });

    it('refuses a 0-credit user with the spec text without opening the image', async () => {
      const broke = await user(0);
      const png = await pngImage(2000, 2000);
      sharpCalls.count = 0;
      const res = await requestGeneration(t.app, broke.token, imageFields, {
        name: 'image',
        filename: 'big.png',
        type: 'image/png',
        data: png,
      });
      expect(res.statusCode).toBe(402);
      expect(res.json().message).toBe(
        'Not enough credits! Generating a Veo 3 Fast Frames video requires 17 credits, you currently have 0 credits',
      );
      expect(sharpCalls.count).toBe(0);
    });

    it('answers the 0-credit user before the upload has even arrived', async () => {
      const broke = await user(0);
      const form = multipart(imageFields, {
        name: 'image',
        filename: 'huge.png',
        type: 'image/png',
        data: Buffer.alloc(9 * 1024 * 1024),
      });
      // Everything up to the file's first bytes; the other 9 MB are never sent.
      const start = form.payload.subarray(0, form.payload.indexOf('image/png') + 64);
      const answer = await answerBeforeBodyEnds(
        port,
        `POST /api/video/generate HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${broke.token}\r\n` +
          `Content-Type: ${form.headers['content-type']}\r\nContent-Length: ${form.payload.length}\r\n\r\n`,
        start,
      );
      expect(answer.status).toBe(402);
      expect(JSON.parse(answer.body).code).toBe('INSUFFICIENT_CREDITS');
    });

    it('answers a signed-out upload with 401 before reading it', async () => {
      const answer = await answerBeforeBodyEnds(
        port,
        'POST /api/video/generate HTTP/1.1\r\nHost: x\r\n' +
          'Content-Type: multipart/form-data; boundary=xyz\r\nContent-Length: 10000000\r\n\r\n',
        Buffer.from('--xyz\r\n'),
      );
      expect(answer.status).toBe(401);
    });

    it('still decodes and charges a user who has the credits', async () => {
      const rich = await user(17);
      const res = await requestGeneration(t.app, rich.token, imageFields, {
        name: 'image',
        filename: 'ok.png',
        type: 'image/png',
        data: await pngImage(),
      });
      expect(res.statusCode).toBe(200);
      expect(await creditBalance(t.app, rich.token)).toBe(0);
    });

    it('accepts 48-megapixel phone photos and refuses larger images from their header', async () => {
      expect(MAX_INPUT_PIXELS).toBeGreaterThanOrEqual(8064 * 6048);
      const rich = await user(17);
      const res = await requestGeneration(t.app, rich.token, imageFields, {
        name: 'image',
        filename: 'wide.png',
        type: 'image/png',
        data: pngHeaderOnly(9000, 6000),
      });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toMatchObject({ code: 'IMAGE_TOO_MANY_PIXELS' });
      expect(res.json().message).toBe(
        'The image is 9000×6000 pixels (54 megapixels); images up to 50 megapixels are accepted. Please upload a smaller image.',
      );
      expect(await creditBalance(t.app, rich.token)).toBe(17);
    });

    it('refuses the same oversized image on the blog upload', async () => {
      const editor = await signInLocal(t.app, 'pics@example.com', 'Pics');
      const body = multipart(
        {},
        { name: 'image', filename: 'wide.png', type: 'image/png', data: pngHeaderOnly(9000, 6000) },
      );
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/blog/upload-image',
        headers: { ...body.headers, ...bearer(editor.token) },
        payload: body.payload,
      });
      expect(res.statusCode).toBe(413);
      expect(res.json().code).toBe('IMAGE_TOO_MANY_PIXELS');
    });

    it('answers 503 with Retry-After when the decode queue is full, and charges nothing', async () => {
      const rich = await user(17);
      const png = await pngImage();
      const { concurrency, queue } = imageDecodes.limits;
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      // Every decode slot busy and every queue place taken by work that waits for `release`.
      const blockers = Array.from({ length: concurrency + queue }, () =>
        imageDecodes.run(() => held),
      );
      try {
        const res = await requestGeneration(t.app, rich.token, imageFields, {
          name: 'image',
          filename: 'ok.png',
          type: 'image/png',
          data: png,
        });
        expect(res.statusCode).toBe(503);
        expect(res.headers['retry-after']).toMatch(/^\d+$/);
        expect(res.json()).toMatchObject({ success: false, code: 'IMAGES_BUSY' });
        expect(res.json().message).toMatch(/try again in a few seconds\.$/);
        expect(await creditBalance(t.app, rich.token)).toBe(17);
      } finally {
        release();
        await Promise.all(blockers);
      }
      expect(imageDecodes.stats()).toEqual({ active: 0, queued: 0 });
    });

    it('runs at most `concurrency` decodes at once, the rest in order', async () => {
      const { concurrency } = imageDecodes.limits;
      let running = 0;
      let peak = 0;
      const order: number[] = [];
      await Promise.all(
        Array.from({ length: concurrency + 3 }, (_, i) =>
          imageDecodes.run(async () => {
            running += 1;
            peak = Math.max(peak, running);
            await new Promise((resolve) => setTimeout(resolve, 20));
            order.push(i);
            running -= 1;
          }),
        ),
      );
      expect(peak).toBe(concurrency);
      expect(order).toEqual([...order].sort((a, b) => a - b));
    });
  });
});
