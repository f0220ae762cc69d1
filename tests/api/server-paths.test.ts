/**
 * `npm run dev` serves pages from Astro's dev server and proxies the server's own paths to the
 * API. Both sides read SERVER_PATH_PREFIXES: a route registered outside it would 404 in dev.
 */
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_PATH_PREFIXES } from '../../shared/server-paths.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

const underPrefix = (url: string) =>
  SERVER_PATH_PREFIXES.some((prefix) => url === prefix || url.startsWith(`${prefix}/`));

describe('server path prefixes', () => {
  let t: TestApp;
  const urls = new Set<string>();

  beforeAll(async () => {
    t = await createTestApp('pglite', {
      env: { SERVE_SITE: 'true' },
      deps: { onRoute: (route: RouteOptions) => void urls.add(route.url) },
    });
  });
  afterAll(() => t.close());

  it('every route but the static site is under one of SERVER_PATH_PREFIXES', () => {
    expect(urls.size).toBeGreaterThan(20);
    expect([...urls].filter((url) => url !== '/*' && !underPrefix(url))).toEqual([]);
    // The site itself is the one catch-all, and every prefix is in use.
    expect(urls).toContain('/*');
    for (const prefix of SERVER_PATH_PREFIXES) {
      expect(
        [...urls].some((url) => url.startsWith(prefix)),
        prefix,
      ).toBe(true);
    }
  });

  it("Astro's dev server proxies each prefix (and only paths under it) to the API", async () => {
    process.env.API_PROXY_TARGET = 'http://127.0.0.1:4322';
    try {
      const { default: config } = (await import('../../astro.config.mjs')) as {
        default: { vite: { server: { proxy: Record<string, string> } } };
      };
      const rules = Object.keys(config.vite.server.proxy).map((key) => new RegExp(key));
      const proxied = (url: string) => rules.some((rule) => rule.test(url));
      for (const url of ['/api/health', '/auth/signin', '/checkout/local/x', '/media/a.mp4']) {
        expect(proxied(url), url).toBe(true);
      }
      for (const url of ['/uploads/blog/a.png', '/samples/a.jpg', '/api']) {
        expect(proxied(url), url).toBe(true);
      }
      for (const url of ['/', '/pricing', '/apiary', '/blog/post', '/admin']) {
        expect(proxied(url), url).toBe(false);
      }
      expect(Object.values(config.vite.server.proxy)).toEqual(
        SERVER_PATH_PREFIXES.map(() => 'http://127.0.0.1:4322'),
      );
    } finally {
      delete process.env.API_PROXY_TARGET;
    }
  });
});
