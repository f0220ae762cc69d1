import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchesEtag, resolveSitePath } from '../../server/domains/site-build/static-site.ts';
import {
  compressibleType,
  createCompressionCache,
  negotiateEncoding,
} from '../../server/core/static-compression.ts';
import { inlineScriptHashes, listFiles } from '../../server/domains/site-build/release.ts';
import { serveRelease } from '../helpers/site-release.ts';

const files = new Set([
  'index.html',
  'login.html',
  '404.html',
  '_astro/app.abc123.js',
  'blog/index.html',
]);

describe('resolveSitePath', () => {
  it.each([
    ['/', 'index.html'],
    ['/login', 'login.html'],
    ['/login.html', 'login.html'],
    ['/blog', 'blog/index.html'],
    ['/_astro/app.abc123.js', '_astro/app.abc123.js'],
    ['/missing', null],
    ['/../etc/passwd', null],
    ['/%2e%2e/etc/passwd', null],
    ['/%E0%A4%A', null],
    ['/login%00', null],
  ])('maps %s to %s', (url, expected) => {
    expect(resolveSitePath(url, files)).toBe(expected);
  });
});

describe('inlineScriptHashes', () => {
  it('hashes executable inline scripts only', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'release-'));
    await mkdir(path.join(dir, 'sub'));
    await writeFile(
      path.join(dir, 'index.html'),
      '<script>console.log(1)</script><script src="/x.js"></script><script type="application/ld+json">{}</script>',
    );
    await writeFile(
      path.join(dir, 'sub', 'page.html'),
      '<script type="module">console.log(1)</script>',
    );
    const listed = await listFiles(dir);
    expect(listed).toEqual(['index.html', 'sub/page.html']);
    // sha256 of "console.log(1)", base64
    expect(await inlineScriptHashes(dir, listed)).toEqual([
      'sha256-CihokcEcBW4atb/CW/XWsvWwbTjqwQlE9nj9ii5ww5M=',
    ]);
  });
});

describe('negotiateEncoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=1', 'br'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['identity', null],
    ['gzip;q=0, br;q=0', null],
    ['', null],
    [undefined, null],
  ])('Accept-Encoding %j answers with %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe('compressibleType', () => {
  it.each([
    ['index.html', 'text/html; charset=UTF-8'],
    ['_astro/client.abc.js', 'application/javascript; charset=UTF-8'],
    ['_astro/BaseLayout.abc.css', 'text/css; charset=UTF-8'],
    ['favicon.svg', 'image/svg+xml'],
    ['sitemap-0.xml', 'application/xml'],
    ['images/cover.webp', null],
    ['media/clip.mp4', null],
    ['README', null],
  ])('%s → %s', (file, expected) => {
    expect(compressibleType(file)).toBe(expected);
  });
});

describe('matchesEtag', () => {
  it.each([
    ['"abc-br"', '"abc-br"', true],
    ['W/"abc-br"', '"abc-br"', true],
    ['"x", "abc-br"', '"abc-br"', true],
    ['*', '"abc-br"', true],
    ['"abc-gzip"', '"abc-br"', false],
    [undefined, '"abc-br"', false],
  ])('If-None-Match %j against %s: %s', (header, etag, expected) => {
    expect(matchesEtag(header, etag)).toBe(expected);
  });
});

describe('createCompressionCache', () => {
  it('compresses each file once and forgets the least recently used past its byte limit', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'compress-'));
    const names = ['a.js', 'b.js', 'c.js'];
    for (const [i, name] of names.entries()) {
      await writeFile(path.join(dir, name), `export const v${i} = "${'x'.repeat(4000)}";\n`);
    }
    const one = (await createCompressionCache().get(path.join(dir, 'a.js'), 'gzip'))!.body.length;
    const cache = createCompressionCache(one * 2);
    const [first, again] = await Promise.all([
      cache.get(path.join(dir, 'a.js'), 'br'),
      cache.get(path.join(dir, 'a.js'), 'br'),
    ]);
    expect(again).toBe(first);
    await cache.get(path.join(dir, 'a.js'), 'gzip');
    await cache.get(path.join(dir, 'b.js'), 'gzip');
    await cache.get(path.join(dir, 'c.js'), 'gzip');
    expect(cache.size).toBeLessThanOrEqual(one * 2);
  });

  it('leaves files alone that are too small to gain from it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'compress-'));
    await writeFile(path.join(dir, 'tiny.js'), 'export{};');
    expect(await createCompressionCache().get(path.join(dir, 'tiny.js'), 'br')).toBeNull();
  });
});

describe('static release serving', () => {
  const script = `export function hello(name) { return "Hello, " + name; }\n${'// padding that compresses well\n'.repeat(200)}`;
  const page = `<!doctype html><title>Home</title>${'<p>Make an 8-second video with sound.</p>'.repeat(100)}`;
  let app: FastifyInstance;

  beforeAll(async () => {
    app = await serveRelease('static-site-', {
      'index.html': page,
      '404.html': page.replace('Home', 'Not found'),
      'pricing.html': page.replace('Home', 'Pricing'),
      '_astro/app.abc123.js': script,
      'logo.png': Buffer.alloc(4096, 7),
    });
  });
  afterAll(() => app.close());

  it('sends hashed scripts Brotli-compressed, cached for a year, varying on Accept-Encoding', async () => {
    const res = await app.inject({
      url: '/_astro/app.abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('application/javascript; charset=UTF-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['vary']).toBe('Accept-Encoding');
    expect(res.rawPayload.length).toBeLessThan(script.length / 4);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('sends gzip to a client without Brotli, and must-revalidate pages', async () => {
    const res = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toBe('text/html; charset=UTF-8');
    expect(res.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect(gunzipSync(res.rawPayload).toString()).toBe(page);
  });

  it('sends the plain file to a client that accepts no compression', async () => {
    const res = await app.inject({ url: '/_astro/app.abc123.js' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['vary']).toBe('Accept-Encoding');
    expect(res.body).toBe(script);
  });

  it('answers 304 when the compressed validator is still fresh', async () => {
    const first = await app.inject({ url: '/', headers: { 'accept-encoding': 'br' } });
    const etag = first.headers['etag'] as string;
    expect(etag).toMatch(/-br"$/);
    const again = await app.inject({
      url: '/',
      headers: { 'accept-encoding': 'br', 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    const otherEncoding = await app.inject({
      url: '/',
      headers: { 'accept-encoding': 'gzip', 'if-none-match': etag },
    });
    expect(otherEncoding.statusCode).toBe(200);
  });

  it('redirects a trailing slash to the page on this site, never to another host', async () => {
    expect((await app.inject({ url: '/pricing/?a=1' })).headers.location).toBe('/pricing?a=1');
    // '//pricing' and '/\\pricing' are protocol-relative: a browser would go to the host "pricing".
    for (const url of ['//pricing/', '///pricing//', '/%5Cpricing/']) {
      const res = await app.inject({ url });
      const location = String(res.headers.location ?? '');
      expect(location, url).not.toMatch(/^[/\\]{2}|^\/\\/);
      if (res.statusCode === 301) expect(location).toBe('/pricing');
    }
  });

  it('compresses the 404 page and keeps its status', async () => {
    const res = await app.inject({ url: '/no-such-page', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).toString()).toContain('Not found');
  });

  it('never recompresses images', async () => {
    const res = await app.inject({ url: '/logo.png', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['vary']).toBeUndefined();
    expect(res.rawPayload.length).toBe(4096);
  });
});

describe("a first start's release without the blog pages (issue 33)", () => {
  const files = {
    'index.html': '<!doctype html><title>Home</title>',
    '404.html': '<!doctype html><title>Not found</title>',
  };
  let partial: FastifyInstance;
  let whole: FastifyInstance;

  beforeAll(async () => {
    partial = await serveRelease('static-site-partial-', files, { partial: true });
    whole = await serveRelease('static-site-whole-', files);
  });
  afterAll(async () => {
    await partial.close();
    await whole.close();
  });

  it('serves its pages at once', async () => {
    const res = await partial.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>Home</title>');
  });

  it('answers the addresses it has no file for as being built, not with the 404 page', async () => {
    for (const url of ['/blog', '/zh/rss.xml', '/sitemap-index.xml', '/blog/page/2']) {
      const res = await partial.inject({ url });
      expect(res.statusCode, url).toBe(503);
      expect(res.headers['retry-after'], url).toBe('2');
      expect(res.headers['cache-control'], url).toBe('no-store');
      expect(res.body, url).toContain('<meta http-equiv="refresh" content="2">');
    }
    // A whole release has no such page: its 404.
    const missing = await whole.inject({ url: '/blog' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('Not found');
  });
});
