/**
 * The static site's answers from memory (issue 33, item 2): what an address needs is worked out
 * on its first request and kept for the release (its file, type, cache policy, the held copy's
 * headers), so the first and every later answer are the same, a 304 carries the validators, and
 * a switch to another release serves that release's bytes at once.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  listFiles,
  siteDirs,
  switchCurrent,
  writeManifest,
} from '../../server/domains/site-build/release.ts';
import {
  loadLiveRelease,
  staticSitePlugin,
  type LiveRelease,
} from '../../server/domains/site-build/static-site.ts';

const page = (title: string) =>
  `<!doctype html><title>${title}</title>${'<p>Make an 8-second video with sound.</p>'.repeat(80)}`;

/** Writes release `id` of `dataDir` with `files` and makes it current. */
async function writeRelease(dataDir: string, id: string, files: Record<string, string>) {
  const dir = path.join(siteDirs(dataDir).releases, id);
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
  await writeManifest(dir, {
    id,
    builtAt: new Date().toISOString(),
    sourceHash: id,
    durationMs: 0,
    files: await listFiles(dir),
    inlineScriptHashes: [],
  });
  await switchCurrent(dataDir, id);
}

describe('static answers from memory', () => {
  let dataDir: string;
  let release: LiveRelease;
  let app: FastifyInstance;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'static-answers-'));
    await writeRelease(dataDir, 'r1', { 'index.html': page('One'), '404.html': page('Missing') });
    release = { files: new Set(), inlineScriptHashes: [], id: null };
    await loadLiveRelease(dataDir, release);
    app = Fastify();
    // Stands in for core/security.ts: headers set before the route must survive its answer.
    app.addHook('onRequest', async (_request, reply) => {
      reply.header('x-content-type-options', 'nosniff');
    });
    await app.register(staticSitePlugin, { dataDir, release });
    await app.ready();
  });
  afterAll(() => app.close());

  it('answers the first request and the later ones with the same headers and bytes', async () => {
    for (const headers of [{}, { 'accept-encoding': 'br' }]) {
      const first = await app.inject({ url: '/', headers });
      const again = await app.inject({ url: '/', headers });
      const { date: _d1, ...firstHeaders } = first.headers;
      const { date: _d2, ...againHeaders } = again.headers;
      expect(againHeaders).toEqual(firstHeaders);
      expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
      expect(first.headers['x-content-type-options']).toBe('nosniff');
      expect(first.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
      expect(first.headers['vary']).toBe('Accept-Encoding');
      expect(first.headers['content-type']).toBe('text/html; charset=UTF-8');
    }
    const plain = await app.inject({ url: '/' });
    expect(plain.headers['last-modified']).toEqual(expect.any(String));
    expect(plain.headers['accept-ranges']).toBe('bytes');
    expect(plain.body).toBe(page('One'));
  });

  it('answers 304 with the validators and no body', async () => {
    const first = await app.inject({ url: '/', headers: { 'accept-encoding': 'br' } });
    const res = await app.inject({
      url: '/',
      headers: { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) },
    });
    expect(res.statusCode).toBe(304);
    expect(res.rawPayload.length).toBe(0);
    expect(res.headers.etag).toBe(first.headers.etag);
    expect(res.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('serves the next release at once after a switch, from its own files', async () => {
    expect((await app.inject({ url: '/' })).body).toBe(page('One'));
    await writeRelease(dataDir, 'r2', { 'index.html': page('Two'), '404.html': page('Gone') });
    await loadLiveRelease(dataDir, release);
    const plain = await app.inject({ url: '/' });
    expect(plain.body).toBe(page('Two'));
    const br = await app.inject({ url: '/', headers: { 'accept-encoding': 'br' } });
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(page('Two'));
    const missing = await app.inject({ url: '/nowhere' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toBe(page('Gone'));
  });
});
