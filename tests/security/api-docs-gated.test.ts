/**
 * Finding 9 of issue 34: /api/docs and /api/docs/json were public in production and listed every
 * admin route. In production they now describe only the public API, the routes customers call;
 * operators' routes (admin, blog editing, status, health) and the webhooks Stripe and the video
 * providers call appear only with API_DOCS=all. Outside production every route stays documented.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../server/config.ts';
import { createTestApp, PRODUCTION_ENV, testConfig, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';

/** Routes customers call: documented everywhere. */
const PUBLIC_ROUTES = [
  '/api/auth/google',
  '/auth/signin',
  '/api/auth/reset-password',
  '/api/auth/user',
  '/api/credits/balance',
  '/api/video/generate',
  '/api/video/history',
  '/api/stripe/create-payment-intent',
  '/api/blog/posts',
  '/api/db/{table}',
];

/** Routes for operators or other services: in production documented only with API_DOCS=all. */
const NOT_PUBLIC = [
  /^\/api\/admin\//,
  /^\/api\/auth\/admin-/,
  /^\/api\/blog\/admin\//,
  /^\/api\/credits\/validate\//,
  /^\/api\/stripe\/webhook$/,
  /^\/api\/video\/webhooks\//,
  /^\/api\/health/,
];

const documentedPaths = async (t: TestApp, url = '/api/docs/json') => {
  const res = await t.app.inject({ url });
  expect(res.statusCode).toBe(200);
  return Object.keys((res.json() as { paths: Record<string, unknown> }).paths);
};

describe('/api/docs in production', () => {
  describe.each(databaseKinds)('on %s', (kind) => {
    let production: TestApp;
    let productionAll: TestApp;
    let development: TestApp;

    beforeAll(async () => {
      production = await createTestApp(kind, { env: PRODUCTION_ENV });
      productionAll = await createTestApp(kind, { env: { ...PRODUCTION_ENV, API_DOCS: 'all' } });
      development = await createTestApp(kind);
    });
    afterAll(async () => {
      await production?.close();
      await productionAll?.close();
      await development?.close();
    });

    it('describes only the public API, in the JSON and on the page', async () => {
      const paths = await documentedPaths(production);
      expect(paths).toEqual(expect.arrayContaining(PUBLIC_ROUTES));
      const leaked = paths.filter((p) => NOT_PUBLIC.some((pattern) => pattern.test(p)));
      expect(leaked, 'operator and webhook routes in the public docs').toEqual([]);

      const yaml = await production.app.inject({ url: '/api/docs/yaml' });
      expect(yaml.statusCode).toBe(200);
      expect(yaml.body).not.toMatch(/\/api\/admin\//);
      const page = await production.app.inject({ url: '/api/docs' });
      expect(page.statusCode).toBeLessThan(400);
    });

    it('describes every route, admin ones too, with API_DOCS=all', async () => {
      const paths = await documentedPaths(productionAll);
      expect(paths).toEqual(expect.arrayContaining([...PUBLIC_ROUTES, '/api/admin/users']));
      for (const pattern of NOT_PUBLIC) {
        expect(
          paths.some((p) => pattern.test(p)),
          String(pattern),
        ).toBe(true);
      }
    });

    it('keeps every route documented outside production', async () => {
      const paths = await documentedPaths(development);
      expect(paths).toEqual(expect.arrayContaining([...PUBLIC_ROUTES, '/api/admin/users']));
      expect(paths.some((p) => p.startsWith('/api/blog/admin/'))).toBe(true);
    });
  });

  it('refuses an API_DOCS value it does not know, naming the variable', () => {
    const load = () => testConfig('./data-unused', { API_DOCS: 'everything' });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/API_DOCS/);
  });
});
