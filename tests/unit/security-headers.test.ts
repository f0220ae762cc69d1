import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { securityHeaders, securityPlugin } from '../../server/core/security.ts';

// What helmet 8 sent with our options before the headers were precomputed; answers keep them.
const everywhere = {
  'cross-origin-opener-policy': 'same-origin-allow-popups',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

describe('security headers sent everywhere', () => {
  it.each([
    ['development', false, everywhere],
    [
      'production',
      true,
      { ...everywhere, 'strict-transport-security': 'max-age=31536000; includeSubDomains' },
    ],
  ])('in %s sends the helmet set', (_name, production, expected) => {
    const { 'content-security-policy': csp, ...rest } = securityHeaders(production, []);
    expect(rest).toEqual(expected);
    expect(csp.startsWith("default-src 'self';script-src 'self' ")).toBe(true);
    expect(csp.endsWith(';upgrade-insecure-requests')).toBe(production);
  });

  it('lists every directive once, without empty values', () => {
    const csp = securityHeaders(false, [])['content-security-policy'];
    const names = csp.split(';').map((d) => d.split(' ')[0]);
    expect(names).toEqual([
      'default-src',
      'script-src',
      'style-src',
      'img-src',
      'media-src',
      'font-src',
      'connect-src',
      'frame-src',
      'frame-ancestors',
      'form-action',
      'base-uri',
      'object-src',
    ]);
    expect(csp).not.toMatch(/ ;| {2}/);
  });
});

describe('security headers across site releases', () => {
  it("follows the live release's inline-script hashes to the next request", async () => {
    const release = { hashes: ['sha256-first'] };
    const app = Fastify();
    await app.register(securityPlugin, {
      production: false,
      inlineScriptHashes: () => release.hashes,
    });
    app.get('/', async () => 'ok');
    const before = await app.inject('/');
    release.hashes = ['sha256-second'];
    const after = await app.inject('/');
    const missing = await app.inject('/nowhere');
    await app.close();
    expect(before.headers['content-security-policy']).toMatch(/script-src [^;]*'sha256-first'/);
    expect(after.headers['content-security-policy']).toMatch(/script-src [^;]*'sha256-second'/);
    expect(after.headers['content-security-policy']).not.toContain('sha256-first');
    // Not-found answers carry them too.
    expect(missing.statusCode).toBe(404);
    expect(missing.headers).toMatchObject(everywhere);
    expect(missing.headers['content-security-policy']).toContain("frame-ancestors 'self'");
  });
});

describe('security headers on API answers', () => {
  it("get default-src 'none' and frame-ancestors 'none'; pages and /api/docs keep the pages' CSP", async () => {
    const app = Fastify();
    await app.register(securityPlugin, { production: true, inlineScriptHashes: () => [] });
    app.get('/api/thing', async () => ({ ok: true }));
    app.get('/api/docs', async () => 'docs');
    app.get('/apiary', async () => 'page');
    const api = await app.inject('/api/thing');
    const docs = await app.inject('/api/docs');
    const page = await app.inject('/apiary');
    await app.close();
    expect(api.headers).toMatchObject({
      'content-security-policy': "default-src 'none';frame-ancestors 'none'",
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
    });
    for (const res of [docs, page]) {
      expect(res.headers['content-security-policy']).toMatch(/^default-src 'self';/);
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    }
  });
});
