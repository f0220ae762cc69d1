/**
 * Security headers on every answer: every page of a real site build, its assets, redirects and
 * 404s, and the API's successes and errors carry the CSP (framing by our own pages only), nosniff
 * and the referrer policy. HSTS goes out only under the production config: on plain-HTTP local
 * runs it would pin a developer's browser to HTTPS for localhost.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { isApiPath } from '../../server/core/security.ts';
import { loadLiveRelease } from '../../server/domains/site-build/static-site.ts';
import {
  bearer,
  createTestApp,
  PRODUCTION_ENV,
  signInLocal,
  testConfig,
  type TestApp,
} from '../helpers/app.ts';

/** The production settings, serving the site (none is contacted in this test). */
const PRODUCTION_SITE_ENV = {
  ...PRODUCTION_ENV,
  SERVE_SITE: 'true',
  GOOGLE_CLIENT_ID: 'headers-test.apps.googleusercontent.com',
};

/** The URL a release file is served at (build.format 'file': login.html → /login). */
function pageUrl(file: string): string {
  const url = `/${file}`.replace(/(^|\/)index\.html$/, '$1').replace(/\.html$/, '');
  return url.length > 1 ? url.replace(/\/$/, '') : url;
}

interface Answer {
  name: string;
  url: string;
  res: LightMyRequestResponse;
}

/** What a header set lacks, as readable lines; empty when it is complete. */
function missingHeaders(answer: Answer, production: boolean): string[] {
  const h = answer.res.headers;
  const problems: string[] = [];
  const csp = String(h['content-security-policy'] ?? '');
  // API answers are JSON: nothing may load or frame them. Pages: our own origin only.
  const api = isApiPath(answer.url);
  const own = api ? "'none'" : "'self'";
  if (!new RegExp(`(^|;\\s*)default-src ${own}`).test(csp))
    problems.push(`CSP default-src ${own} (got "${csp}")`);
  if (!new RegExp(`(^|;\\s*)frame-ancestors ${own}(;|$)`).test(csp))
    problems.push(`frame-ancestors ${own}`);
  if (api && h['x-frame-options'] !== 'DENY') problems.push('X-Frame-Options: DENY');
  if (h['x-content-type-options'] !== 'nosniff') problems.push('X-Content-Type-Options: nosniff');
  if (h['referrer-policy'] !== 'strict-origin-when-cross-origin')
    problems.push('Referrer-Policy: strict-origin-when-cross-origin');
  const hsts = h['strict-transport-security'];
  if (production && !/^max-age=31536000; includeSubDomains$/.test(String(hsts)))
    problems.push(`HSTS max-age=31536000; includeSubDomains (got ${String(hsts)})`);
  if (!production && hsts !== undefined) problems.push(`no HSTS outside production (got ${hsts})`);
  return problems.map((p) => `${answer.name} → ${answer.res.statusCode}: missing ${p}`);
}

describe('security headers', () => {
  let t: TestApp;
  let production: FastifyInstance;
  let token: string;
  let pages: string[];
  let assets: string[];

  beforeAll(async () => {
    t = await createTestApp('pglite', { env: { SERVE_SITE: 'true' } });
    await t.app.writeSnapshot();
    await t.app.siteBuilder!.build();
    await loadLiveRelease(t.dataDir, t.app.siteRelease);
    const files = [...t.app.siteRelease.files];
    pages = files.filter((f) => f.endsWith('.html')).map(pageUrl);
    // One of each kind of asset the pages load.
    assets = ['.js', '.css', '.svg', '.xml', '.txt']
      .map((ext) => files.find((f) => f.endsWith(ext)))
      .filter((f): f is string => !!f)
      .map((f) => `/${f}`);
    // The same release and database under the production config.
    production = await buildApp(testConfig(t.dataDir, PRODUCTION_SITE_ENV), {
      database: t.database,
      scheduler: false,
    });
    token = (await signInLocal(t.app, 'headers@example.com', 'Hedda Headers')).token;
  }, 180_000);
  afterAll(async () => {
    await production?.close();
    await t?.close();
  });

  /** Every kind of answer: pages, assets, redirects, 404s, API successes and errors. */
  async function everyAnswer(app: FastifyInstance): Promise<Answer[]> {
    const get = async (name: string, opts: InjectOptions): Promise<Answer> => ({
      name,
      url: String(opts.url),
      res: await app.inject(opts),
    });
    const answers: Answer[] = [];
    for (const url of [...pages, ...assets]) answers.push(await get(`GET ${url}`, { url }));
    const list = await app.inject({ url: '/api/blog/posts?page=1&limit=12' });
    answers.push(
      await get('GET / (gzip)', { url: '/', headers: { 'accept-encoding': 'gzip' } }),
      await get('GET /pricing/ (redirect)', { url: '/pricing/' }),
      await get('GET /no-such-page (404 page)', { url: '/no-such-page' }),
      await get('GET /api/health', { url: '/api/health' }),
      { name: 'GET /api/blog/posts', url: '/api/blog/posts', res: list },
      await get('GET /api/blog/posts (304)', {
        url: '/api/blog/posts?page=1&limit=12',
        headers: { 'if-none-match': String(list.headers.etag) },
      }),
      await get('GET /api/credits/balance (signed in)', {
        url: '/api/credits/balance',
        headers: bearer(token),
      }),
      await get('GET /api/docs/json', { url: '/api/docs/json' }),
      await get('GET /api/auth/user (401)', { url: '/api/auth/user' }),
      await get('GET /api/admin/me (403)', { url: '/api/admin/me', headers: bearer(token) }),
      await get('GET /api/no-such-route (404)', { url: '/api/no-such-route' }),
      await get('GET /api/blog/posts/no-such-post (404)', { url: '/api/blog/posts/no-such-post' }),
      await get('POST /auth/signin malformed JSON (400)', {
        method: 'POST',
        url: '/auth/signin',
        headers: { 'content-type': 'application/json' },
        payload: '{"email":',
      }),
      await get('GET /media/missing.mp4 (404)', { url: '/media/missing.mp4' }),
    );
    return answers;
  }

  it('builds a release with pages and assets to check', () => {
    expect(pages).toContain('/');
    expect(pages).toContain('/pricing');
    expect(pages.length).toBeGreaterThan(10);
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
  });

  it.each([
    ['test', false],
    ['production', true],
  ])(
    'sends CSP with frame-ancestors, nosniff and the referrer policy on every answer (%s)',
    async (_name, isProduction) => {
      const answers = await everyAnswer(isProduction ? production : t.app);
      const statuses = new Set(answers.map((a) => a.res.statusCode));
      // The list covers successes, revalidation, redirects and the errors.
      for (const status of [200, 301, 304, 400, 401, 403, 404]) expect(statuses).toContain(status);
      const problems = answers.flatMap((a) => missingHeaders(a, isProduction));
      expect(problems, problems.join('\n')).toEqual([]);
    },
  );

  it("allows each of the release's inline scripts by hash, and nothing inline besides", async () => {
    const csp = String((await t.app.inject({ url: '/' })).headers['content-security-policy']);
    const scriptSrc = /(?:^|;\s*)script-src ([^;]*)/.exec(csp)?.[1]?.split(' ') ?? [];
    for (const hash of t.app.siteRelease.inlineScriptHashes)
      expect(scriptSrc).toContain(`'${hash}'`);
    expect(scriptSrc).not.toContain("'unsafe-inline'");
  });

  // Issue 36: the public API answers JSON like /api, with its headers (nothing may load or
  // frame it), not a page's CSP of scripts and frames (which it carried at first).
  it.each([
    ['GET /v1/quote without a key (401)', '/v1/quote'],
    ['GET /v1 (404)', '/v1'],
    ['GET /v1/no-such-route (404)', '/v1/no-such-route?x=1'],
  ])("gives the /v1 answer %s the API's headers", async (_name, url) => {
    const res = await t.app.inject({ url });
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none';frame-ancestors 'none'",
    );
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(isApiPath(url)).toBe(true);
  });
});
