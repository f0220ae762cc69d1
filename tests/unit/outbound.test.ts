/**
 * The guarded fetcher (server/core/outbound.ts, issue 34 finding 1): which addresses count as
 * public, that the check runs on what a name resolves to (not only on literal addresses), that
 * the allow-list is exact host:port, and that bodies stop at their cap.
 */
import { mkdtemp, readdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  guardedFetch,
  isPublicAddress,
  OutboundRefusedError,
  OutboundTooLargeError,
  parseAllowHosts,
  readCapped,
} from '../../server/core/outbound.ts';
import { writeInlineVideo } from '../../server/domains/video/providers/inline-video.ts';
import { closeServer, listen } from '../fakes/http.ts';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.8',
    '172.16.3.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '240.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:169.254.169.254',
    '64:ff9b::a9fe:a9fe',
    '2002:a9fe:a9fe::1',
    'not an address',
  ])('%s is not public', (address) => expect(isPublicAddress(address)).toBe(false));

  it.each(['8.8.8.8', '34.117.59.81', '2001:4860:4860::8888', '::ffff:8.8.8.8'])(
    '%s is public',
    (address) => expect(isPublicAddress(address)).toBe(true),
  );
});

describe('parseAllowHosts', () => {
  it('reads exact host:port entries, lower case', () => {
    expect([...parseAllowHosts(' 127.0.0.1:4010, LocalHost:80,[::1]:9000 ,')]).toEqual([
      '127.0.0.1:4010',
      'localhost:80',
      '[::1]:9000',
    ]);
  });
  it.each(['127.0.0.1', 'localhost:', 'http://127.0.0.1:80', '127.0.0.1:99999', '*:80'])(
    'refuses %s, naming it',
    (entry) => expect(() => parseAllowHosts(entry)).toThrow(entry),
  );
});

describe('guardedFetch', () => {
  let server: Server;
  let port: number;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits += 1;
      if (req.url === '/big') {
        res.writeHead(200);
        const chunk = Buffer.alloc(64 * 1024, 7);
        for (let i = 0; i < 64; i += 1) res.write(chunk);
        return void res.end();
      }
      if (req.url === '/redirect') return void res.writeHead(302, { location: '/ok' }).end();
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
    port = (await listen(server)).port;
  });
  afterAll(() => closeServer(server));

  it('refuses loopback by literal address and by a name that resolves to it, before connecting', async () => {
    const before = hits;
    const fetchPublic = guardedFetch();
    for (const url of [
      `http://127.0.0.1:${port}/ok`,
      `http://[::1]:${port}/ok`,
      `http://localhost:${port}/ok`,
      `http://[::ffff:127.0.0.1]:${port}/ok`,
    ]) {
      const error = await fetchPublic(url).then(
        () => null,
        (err: unknown) => err,
      );
      expect(error, url).toBeInstanceOf(Error);
      expect((error as { code?: string }).code, url).toBe('EOUTBOUND_REFUSED');
    }
    await expect(fetchPublic('file:///etc/passwd')).rejects.toBeInstanceOf(OutboundRefusedError);
    expect(hits).toBe(before);
  });

  it('reaches an allow-listed host:port, and only that port', async () => {
    const allowed = guardedFetch({ allowHosts: parseAllowHosts(`127.0.0.1:${port}`) });
    const res = await allowed(`http://127.0.0.1:${port}/ok`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok');
    await expect(allowed(`http://localhost:${port}/ok`)).rejects.toMatchObject({
      code: 'EOUTBOUND_REFUSED',
    });
  });

  it('does not follow redirects itself', async () => {
    const allowed = guardedFetch({ allowHosts: parseAllowHosts(`127.0.0.1:${port}`) });
    const res = await allowed(`http://127.0.0.1:${port}/redirect`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/ok');
  });

  it('stops reading a body once it passes the cap', async () => {
    const allowed = guardedFetch({ allowHosts: parseAllowHosts(`127.0.0.1:${port}`) });
    const res = await allowed(`http://127.0.0.1:${port}/big`);
    await expect(readCapped(res, 1024 * 1024)).rejects.toBeInstanceOf(OutboundTooLargeError);
    const whole = await readCapped(await allowed(`http://127.0.0.1:${port}/big`), 8 * 1024 * 1024);
    expect(whole.length).toBe(4 * 1024 * 1024);
  });
});

describe('inline videos (base64 inside a provider answer)', () => {
  it('are refused over VIDEO_RESULT_MAX_BYTES before decoding, and nothing is written', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'inline-'));
    const dest = path.join(dir, 'video.mp4');
    const base64 = Buffer.alloc(3 * 1024 * 1024, 1).toString('base64');
    await expect(writeInlineVideo(base64, dest, 2 * 1024 * 1024)).rejects.toMatchObject({
      kind: 'rejected',
    });
    expect(await readdir(dir)).toEqual([]);
    await writeInlineVideo(base64, dest, 4 * 1024 * 1024);
    expect(await readdir(dir)).toEqual(['video.mp4']);
  });
});
