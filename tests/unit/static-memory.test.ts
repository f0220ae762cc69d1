import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveRelease } from '../helpers/site-release.ts';

// Plain answers of text files come from memory; ranges and rare preconditions from the file.
describe('plain static answers', () => {
  const page = `<!doctype html><title>Pricing</title>${'<p>Credits never expire.</p>'.repeat(50)}`;
  let app: FastifyInstance;

  beforeAll(async () => {
    app = await serveRelease('static-memory-', {
      'pricing.html': page,
      '404.html': '<!doctype html><title>Not found</title>',
    });
  });
  afterAll(() => app.close());

  it('carry the validators and headers the file answer carries', async () => {
    const plain = await app.inject('/pricing');
    const fromFile = await app.inject({ url: '/pricing', headers: { range: 'bytes=0-9' } });
    expect(plain.statusCode).toBe(200);
    expect(plain.body).toBe(page);
    expect(fromFile.statusCode).toBe(206);
    expect(fromFile.body).toBe(page.slice(0, 10));
    for (const name of ['etag', 'last-modified', 'accept-ranges', 'cache-control', 'vary']) {
      expect([name, plain.headers[name]]).toEqual([name, fromFile.headers[name]]);
    }
    expect(String(plain.headers['content-type']).toLowerCase()).toBe(
      String(fromFile.headers['content-type']).toLowerCase(),
    );
    expect(Number(plain.headers['content-length'])).toBe(Buffer.byteLength(page));
  });

  it.each([
    ['If-None-Match with its ETag', (etag: string) => ({ 'if-none-match': etag }), 304],
    ['If-None-Match with another ETag', () => ({ 'if-none-match': '"other"' }), 200],
    [
      'If-Modified-Since after its change',
      () => ({ 'if-modified-since': new Date(Date.now() + 60_000).toUTCString() }),
      304,
    ],
    [
      'If-Modified-Since before its change',
      () => ({ 'if-modified-since': new Date(0).toUTCString() }),
      200,
    ],
  ])('revalidate with %s', async (_name, headers, status) => {
    const etag = (await app.inject('/pricing')).headers.etag as string;
    const res = await app.inject({ url: '/pricing', headers: headers(etag) });
    expect(res.statusCode).toBe(status);
    expect(res.body).toBe(status === 304 ? '' : page);
  });

  it('answer HEAD with the headers and no body', async () => {
    const res = await app.inject({ method: 'HEAD', url: '/pricing' });
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(page));
    expect(res.body).toBe('');
  });

  it('keep the 404 status of the not-found page', async () => {
    const res = await app.inject('/no-such-page');
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('Not found');
  });
});
