/**
 * Bad input over every route. The corpus (bad-input-corpus.ts) is generated from the route table
 * Fastify registered: malformed JSON, invalid UTF-8, 10,000-level nesting, prototype keys, 1 MB
 * strings, wrong types, missing fields, broken query strings, path traversal in every `:param`
 * and static file route, unknown methods and hostile multipart uploads. Every answer must be a
 * 4xx in the error shape `{ success: false, message, code }` with a sentence a person can act on
 * (404/405 for unknown methods), never a 5xx, never a file from outside the served folders; and
 * /api/health still answers afterwards. PGlite runs the whole corpus, PostgreSQL the families
 * whose input reaches the database.
 */
import { randomUUID } from 'node:crypto';
import { access, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { HTTPMethods, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_MODEL } from '../../shared/video.ts';
import { MAX_JSON_DEPTH } from '../../server/core/request-input.ts';
import { loadLiveRelease } from '../../server/domains/site-build/static-site.ts';
import {
  bearer,
  createTestApp,
  makeAdmin,
  signInAdmin,
  signInLocal,
  type TestApp,
} from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';
import { grantCredits, pngImage } from '../helpers/video.ts';
import {
  casesFor,
  formData,
  methodCases,
  unboundedValues,
  type BadCase,
  type CorpusHints,
  type Family,
  type JsonSchema,
  type RouteEntry,
} from './bad-input-corpus.ts';

const EDITOR_EMAIL = 'corpus-editor@example.com';
const CANARY = `canary-${randomUUID()}`;
/** Texts that would prove a file outside the served folders was read. */
const LEAKS = [CANARY, 'root:x:0:0', '"devDependencies"'];
/** Refusals by the access guard: seen here, the case never reached the route's input. */
const GUARD_CODES = new Set([
  'SIGN_IN_REQUIRED',
  'ADMIN_REQUIRED',
  'NOT_EDITOR',
  // The public API's (issue 36): a /v1 case must get past its key to test the input.
  'API_KEY_REQUIRED',
  'API_KEY_INVALID',
  'API_KEY_SCOPE_MISSING',
]);
const BARE_PHRASE =
  /^(bad request|forbidden|not found|unauthorized|payload too large|unsupported media type|method not allowed)\.?$/i;

interface Harness {
  t: TestApp;
  routes: RouteEntry[];
  tokens: { user: string; editor: string; admin: string; all: string; apiKey: string };
  hints: CorpusHints;
  png: Buffer;
}

/** Builds the app, recording every route as Fastify registers it, and signs in each role. */
async function startHarness(kind: (typeof databaseKinds)[number]): Promise<Harness> {
  const registered: RouteOptions[] = [];
  const t = await createTestApp(kind, {
    // The corpus sends hundreds of /v1 requests with one key: above its default minute's budget.
    env: { BLOG_EDITORS: EDITOR_EMAIL, API_REQUESTS_PER_MINUTE: '100000' },
    deps: { onRoute: (route) => registered.push(route) },
  });
  const user = await signInLocal(t.app, 'corpus-user@example.com', 'Corpus User');
  await grantCredits(t, user.user.id, 1000);
  const editor = await signInLocal(t.app, EDITOR_EMAIL, 'Corpus Editor');
  // One session that passes every guard, for routes that declare no access level.
  const all = await signInLocal(t.app, EDITOR_EMAIL, 'Corpus Editor');
  await makeAdmin(t, all.token);
  const admin = await signInAdmin(t.app);
  // A developer's key with every scope, for /v1 (issue 36).
  const key = await t.app.inject({
    method: 'POST',
    url: '/api/account/api-keys',
    headers: bearer(user.token),
    payload: { name: 'bad input', scopes: ['videos:write', 'videos:read', 'credits:read'] },
  });
  if (key.statusCode !== 201) throw new Error(`API key: ${key.body}`);

  // Files a traversal out of /media/ or /uploads/blog/ would reach.
  await mkdir(path.join(t.dataDir, 'uploads'), { recursive: true });
  await writeFile(path.join(t.dataDir, 'secret.txt'), CANARY);
  await writeFile(path.join(t.dataDir, 'uploads', 'secret.txt'), CANARY);

  // Read after `ready`: the access plugin fills in each route's declared level as it registers.
  const routes: RouteEntry[] = registered.flatMap((route) =>
    [route.method]
      .flat()
      .filter((method) => method !== 'HEAD')
      .map((method) => {
        const schema = (route.schema ?? {}) as Record<string, unknown>;
        return {
          method,
          url: route.url,
          body: schema.body as JsonSchema | undefined,
          querystring: schema.querystring as JsonSchema | undefined,
          params: schema.params as JsonSchema | undefined,
          multipart: ((schema.consumes as string[] | undefined) ?? []).includes(
            'multipart/form-data',
          ),
          access: route.config?.access,
        };
      }),
  );
  return {
    t,
    routes,
    tokens: {
      user: user.token,
      editor: editor.token,
      admin,
      all: all.token,
      apiKey: (key.json() as { data: { key: string } }).data.key,
    },
    hints: {
      params: {
        userId: user.user.id,
        id: randomUUID(),
        taskId: randomUUID(),
        slug: 'bad-input-post',
        table: 'posts',
        name: 'increment_post_views',
        sessionId: 'cs_badinput',
        '*': 'missing.png',
      },
      multipartFields: {
        '/api/video/generate': {
          prompt: 'A red fox runs through fresh snow at dawn',
          model: IMAGE_MODEL,
        },
      },
    },
    png: await pngImage(),
  };
}

function tokenFor(h: Harness, access: string | undefined): string {
  if (access === 'api-key') return h.tokens.apiKey;
  if (access === 'admin') return h.tokens.admin;
  if (access === 'editor') return h.tokens.editor;
  if (access === undefined) return h.tokens.all;
  return h.tokens.user;
}

let requestCount = 0;
/** A fresh client address per request, so per-client rate limits never answer for the input. */
function send(h: Harness, c: BadCase, token: string) {
  requestCount += 1;
  const n = requestCount;
  return h.t.app.inject({
    method: c.method as HTTPMethods,
    url: c.url,
    headers: { ...c.headers, ...bearer(token) },
    ...(c.payload === undefined ? {} : { payload: c.payload }),
    remoteAddress: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
  });
}

/** What is wrong with an answer to a bad request, or null when it is what a person should get. */
function problemWith(
  c: BadCase,
  res: { statusCode: number; body: string; headers: Record<string, unknown> },
  opts: { htmlErrorsAllowed?: boolean } = {},
): string | null {
  const status = res.statusCode;
  const clientError = status >= 400 && status < 500;
  const allowed =
    c.expect === 'not-found-or-not-allowed'
      ? status === 404 || status === 405
      : c.expect === 'client-error-or-success'
        ? clientError || (status >= 200 && status < 300)
        : clientError;
  if (!allowed) return `answered ${status}: ${res.body.slice(0, 200)}`;
  if (LEAKS.some((leak) => res.body.includes(leak)))
    return 'answered with a file it must not serve';
  if (!clientError) return null;
  const type = String(res.headers['content-type'] ?? '');
  if (opts.htmlErrorsAllowed && type.startsWith('text/html')) return null;
  let body: { success?: unknown; message?: unknown; code?: unknown };
  try {
    body = JSON.parse(res.body) as typeof body;
  } catch {
    return `answered ${status} without a JSON body (${type}): ${res.body.slice(0, 120)}`;
  }
  // The public API's own shape, `{ error: { code, message } }` (issue 36), under /v1 only.
  const v1 = (body as { error?: { code?: unknown; message?: unknown } }).error;
  if (/^\/v1(\/|\?|$)/.test(c.url) && v1 && typeof v1 === 'object') {
    body = { success: false, code: v1.code, message: v1.message };
  }
  if (body.success !== false || typeof body.code !== 'string' || !body.code)
    return `answered ${status} outside the error shape: ${res.body.slice(0, 200)}`;
  const message = typeof body.message === 'string' ? body.message.trim() : '';
  if (message.split(/\s+/).length < 3 || BARE_PHRASE.test(message))
    return `answered ${status} with a message a person cannot act on: ${JSON.stringify(body.message)}`;
  if (/FST_|\bajv\b|\.ts:\d|node_modules|stack/i.test(message))
    return `answered ${status} with internals in the message: ${message}`;
  // The key's budget is raised for the corpus (API_REQUESTS_PER_MINUTE), so a /v1 case refused
  // for it never reached its input. (Per-user limits of session routes still answer some cases.)
  if (body.code === 'RATE_LIMITED' && c.url.startsWith('/v1'))
    return "refused by the key's rate limit, so the input was never read";
  if (GUARD_CODES.has(body.code))
    return `refused by the access guard (${body.code}), so the input was never read`;
  return null;
}

/** The cases of one family over the whole route table. */
function familyCases(h: Harness, family: Family): Array<{ c: BadCase; token: string }> {
  if (family === 'methods') {
    const byPath = new Map<string, Set<string>>();
    for (const r of h.routes) byPath.set(r.url, (byPath.get(r.url) ?? new Set()).add(r.method));
    return [...byPath].flatMap(([url, methods]) => {
      const route = h.routes.find((r) => r.url === url)!;
      return methodCases(url, methods, concreteUrl(route, h)).map((c) => ({
        c,
        token: h.tokens.all,
      }));
    });
  }
  return h.routes.flatMap((route) =>
    casesFor(route, h.hints, h.png)
      .filter((c) => c.family === family)
      .map((c) => ({ c, token: tokenFor(h, route.access) })),
  );
}

/** The route's URL with its params filled from the hints (what a real client would call). */
function concreteUrl(route: RouteEntry, h: Harness): string {
  return route.url.replace(/:([A-Za-z0-9_]+)|\*/g, (_m, name: string | undefined) =>
    encodeURIComponent(h.hints.params[name ?? '*'] ?? 'x'),
  );
}

async function runFamily(
  h: Harness,
  family: Family,
): Promise<{ sent: number; problems: string[] }> {
  const problems: string[] = [];
  const cases = familyCases(h, family);
  for (const { c, token } of cases) {
    const res = await send(h, c, token);
    const problem = problemWith(c, res);
    if (problem) problems.push(`${c.method} ${c.url.slice(0, 120)} — ${c.name}: ${problem}`);
  }
  return { sent: cases.length, problems };
}

const ALL_FAMILIES: Family[] = ['json-body', 'fields', 'query', 'params', 'methods', 'multipart'];
/** The families whose input reaches queries: enough to prove PostgreSQL refuses the same. */
const DATABASE_FAMILIES: Family[] = ['fields', 'query', 'params', 'multipart'];

describe.each(databaseKinds)('bad input over every route (%s)', (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(kind);
  });
  afterAll(() => h.t.close());

  it('builds its corpus from the route table Fastify registered', () => {
    const keys = h.routes.map((r) => `${r.method} ${r.url}`);
    for (const known of [
      'POST /api/auth/local',
      'POST /api/blog/admin/posts',
      'PUT /api/blog/admin/posts/:id',
      'POST /api/video/generate',
      'GET /api/db/:table',
      'POST /api/rpc/:name',
      'GET /media/:file',
    ])
      expect(keys).toContain(known);
    expect(h.routes.length).toBeGreaterThan(40);
  });

  it.each(kind === 'pglite' ? ALL_FAMILIES : DATABASE_FAMILIES)(
    'answers every %s case with a 4xx in the error shape, and stays up',
    async (family) => {
      const { sent, problems } = await runFamily(h, family);
      expect(sent).toBeGreaterThan(0);
      expect(problems).toEqual([]);
      const health = await h.t.app.inject({ url: '/api/health' });
      expect(health.statusCode).toBe(200);
    },
    600_000,
  );

  it('kept every session it used: the corpus reached the routes, not the sign-in guard', async () => {
    const { apiKey, ...sessions } = h.tokens;
    for (const token of Object.values(sessions)) {
      const res = await h.t.app.inject({ url: '/api/auth/user', headers: bearer(token) });
      expect(res.statusCode).toBe(200);
    }
    // The key too (a revoked or unknown key would have met only the /v1 guard).
    const res = await h.t.app.inject({ url: '/v1/credits', headers: bearer(apiKey) });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('bad input: what each refusal says, and schema bounds (pglite)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('pglite');
  });
  afterAll(() => h.t.close());

  it('bounds every string and number a route accepts', () => {
    const unbounded = h.routes.flatMap((r) => [
      ...unboundedValues(r.body, `${r.method} ${r.url} body`),
      ...unboundedValues(r.querystring, `${r.method} ${r.url} query`),
      ...unboundedValues(r.params, `${r.method} ${r.url} params`),
    ]);
    expect(unbounded).toEqual([]);
  });

  const post = (payload: string | Buffer, contentType = 'application/json') =>
    h.t.app.inject({
      method: 'POST',
      url: '/api/auth/local',
      headers: { 'content-type': contentType },
      payload,
    });

  it.each([
    ['malformed JSON', '{"name":', 400, 'INVALID_JSON', /not valid JSON/],
    ['an empty body', '', 400, 'EMPTY_BODY', /empty/],
    [
      'invalid UTF-8',
      Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
      400,
      'INVALID_UTF8',
      /UTF-8/,
    ],
    [
      'nesting deeper than the limit',
      '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1),
      400,
      'JSON_TOO_DEEP',
      new RegExp(`more than ${MAX_JSON_DEPTH} levels`),
    ],
    ['a __proto__ key', '{"__proto__":{"isAdmin":true}}', 400, 'FORBIDDEN_KEY', /'__proto__'/],
    [
      'a constructor.prototype key',
      '{"constructor":{"prototype":{}}}',
      400,
      'FORBIDDEN_KEY',
      /'constructor\.prototype'/,
    ],
    [
      'a NUL character',
      '{"name":"a\\u0000b","email":"a@example.com"}',
      400,
      'NUL_CHARACTER',
      /NUL/,
    ],
    [
      'a body over the 64 KB limit',
      `{"name":"${'x'.repeat(70_000)}"}`,
      413,
      'BODY_TOO_LARGE',
      /^The request body is 68 KB; this address accepts at most 64 KB\./,
    ],
  ])('answers %s with its own status and code', async (_what, payload, status, code, message) => {
    const res = await post(payload);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ success: false, code });
    expect(res.json().message).toMatch(message);
  });

  it('answers a body that is not JSON with 415 and names what it accepts', async () => {
    const res = await post('<a/>', 'application/xml');
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ success: false, code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(res.json().message).toMatch(/application\/json/);
  });

  it.each([
    ['a %-escape that does not decode', '/api/blog/posts/%E0%A4%A', 400, 'BAD_URL'],
    ['a NUL in the path', '/api/blog/posts/a%00b', 400, 'NUL_CHARACTER'],
    ['a NUL in the query', '/api/blog/posts?page=1%00', 400, 'NUL_CHARACTER'],
    [
      'a path segment over 200 characters',
      `/api/blog/posts/${'x'.repeat(201)}`,
      414,
      'URI_TOO_LONG',
    ],
    [
      'an id that is not a uuid',
      '/api/blog/admin/posts/..%2f..%2fetc%2fpasswd',
      400,
      'VALIDATION_ERROR',
    ],
  ])(
    'answers %s with its own status and code, security headers included',
    async (_what, url, status, code) => {
      const res = await h.t.app.inject({ url, headers: bearer(h.tokens.editor) });
      expect(res.statusCode).toBe(status);
      expect(res.json()).toMatchObject({ success: false, code });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    },
  );

  const BLOG_UPLOAD = '/api/blog/admin/upload';
  const GENERATE = '/api/video/generate';
  const upload = (url: string, form: { payload: Buffer; headers: Record<string, string> }) =>
    h.t.app.inject({
      method: 'POST',
      url,
      headers: {
        ...form.headers,
        ...bearer(url === GENERATE ? h.tokens.user : h.tokens.editor),
      },
      payload: form.payload,
    });
  const photo = (filename = 'photo.png') => ({
    name: 'image',
    filename,
    type: 'image/png',
    value: h.png,
  });

  it.each([
    {
      what: 'more parts than the form has',
      url: GENERATE,
      // A field the form takes, sent over and over (an unknown name is refused at once).
      form: () => formData(Array.from({ length: 40 }, () => ({ name: 'prompt', value: 'x' }))),
      status: 400,
      code: 'TOO_MANY_PARTS',
    },
    {
      what: 'a second image',
      url: BLOG_UPLOAD,
      form: () => formData([photo(), photo('second.png')]),
      status: 400,
      code: 'TOO_MANY_PARTS',
    },
    {
      what: 'a field the upload does not take',
      url: BLOG_UPLOAD,
      form: () => formData([{ name: 'caption', value: 'x' }, photo()]),
      status: 400,
      code: 'UNEXPECTED_FIELD',
    },
    {
      what: 'a file over 10 MB',
      url: BLOG_UPLOAD,
      form: () => formData([{ ...photo(), value: Buffer.alloc(11 << 20) }]),
      status: 413,
      code: 'IMAGE_TOO_LARGE',
    },
    {
      what: 'a field named __proto__',
      url: BLOG_UPLOAD,
      form: () => formData([{ name: '__proto__', value: 'x' }, photo()]),
      status: 400,
      code: 'FORBIDDEN_FIELD_NAME',
    },
    {
      what: 'a NUL in the prompt',
      url: GENERATE,
      form: () =>
        formData([
          { name: 'prompt', value: 'a fox\u0000' },
          { name: 'model', value: IMAGE_MODEL },
          photo(),
        ]),
      status: 400,
      code: 'NUL_CHARACTER',
    },
  ])('answers an upload with $what with $status $code', async ({ url, form, status, code }) => {
    const res = await upload(url, form());
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ success: false, code });
  });

  it('stores an image sent under a hostile file name under a name of its own', async () => {
    const res = await upload(BLOG_UPLOAD, formData([photo('../../../evil.png')]));
    expect(res.statusCode).toBe(200);
    const url = (res.json() as { data: { url: string } }).data.url;
    expect(url).toMatch(/^\/uploads\/blog\/[0-9a-f]{32}\.png$/);
    const uploads = path.join(h.t.dataDir, 'uploads', 'blog');
    expect(await readdir(uploads)).toContain(path.basename(url));
    for (const outside of ['../evil.png', '../../evil.png', '../../../evil.png']) {
      await expect(access(path.resolve(uploads, outside))).rejects.toThrow();
    }
  });
});

describe('bad input: the static site refuses traversal (pglite)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { env: { SERVE_SITE: 'true' } });
    // A minimal live release: what a build leaves in DATA_DIR/site.
    const release = path.join(t.dataDir, 'site', 'releases', 'r1');
    await mkdir(path.join(release, '_astro'), { recursive: true });
    await writeFile(path.join(release, 'index.html'), '<!doctype html><title>Home</title>');
    await writeFile(path.join(release, '404.html'), '<!doctype html><title>Not found</title>');
    await writeFile(path.join(release, '_astro', 'app.js'), 'console.log(1)');
    await writeFile(
      path.join(release, 'release.json'),
      JSON.stringify({
        id: 'r1',
        builtAt: new Date().toISOString(),
        sourceHash: 'x',
        durationMs: 1,
        files: ['index.html', '404.html', '_astro/app.js'],
        inlineScriptHashes: [],
      }),
    );
    await symlink(release, path.join(t.dataDir, 'site', 'current'));
    await writeFile(path.join(t.dataDir, 'secret.txt'), CANARY);
    await writeFile(path.join(t.dataDir, 'site', 'secret.txt'), CANARY);
    await loadLiveRelease(t.dataDir, t.app.siteRelease);
  });
  afterAll(() => t.close());

  it('serves the release', async () => {
    expect((await t.app.inject({ url: '/' })).statusCode).toBe(200);
  });

  it('answers every traversal with a 4xx and never a file outside the release', async () => {
    const problems: string[] = [];
    const segments = [
      '..%2f..%2fsecret.txt',
      '..%2F..%2F..%2Fsecret.txt',
      '%2e%2e/%2e%2e/secret.txt',
      '%2e%2e%2f%2e%2e%2fsecret.txt',
      '..%252f..%252fsecret.txt',
      '..%5c..%5csecret.txt',
      '%c0%ae%c0%ae/secret.txt',
      'a%00.html',
      '%',
      '%zz',
      '../../secret.txt',
    ];
    for (const prefix of ['/', '/blog/', '/_astro/', '/_astro/..%2f']) {
      for (const segment of segments) {
        const c: BadCase = {
          family: 'params',
          name: `${prefix}${segment}`,
          method: 'GET',
          url: `${prefix}${segment}`,
          headers: {},
          expect: 'client-error',
        };
        const res = await t.app.inject({ url: c.url });
        const problem = problemWith(c, res, { htmlErrorsAllowed: true });
        if (problem) problems.push(`GET ${c.url}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
  });
});
