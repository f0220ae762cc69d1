/**
 * Finding 11 (issue 16), type coercion: the validator turned `amount: true` into 1, `"50"` into
 * 50 and `"x"` into `["x"]` in JSON bodies, so a request that says something else than what was
 * stored passed. JSON bodies are taken as sent; query strings and path parameters, which are
 * text by nature, are still read as the numbers and booleans their schemas ask for.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partAwareValidator } from '../../server/core/validation.ts';
import {
  bearer,
  createTestApp,
  creditBalance,
  signInAdmin,
  signInLocal,
  type TestApp,
} from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';

describe.each(databaseKinds)('type coercion on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let editorToken: string;
  let ann: { token: string; user: { id: string } };

  beforeAll(async () => {
    t = await createTestApp(kind, { env: { BLOG_EDITORS: 'editor@example.com' } });
    adminToken = await signInAdmin(t.app);
    editorToken = (await signInLocal(t.app, 'editor@example.com', 'Eddie')).token;
    ann = await signInLocal(t.app, 'ann@example.com', 'Ann');
  });
  afterAll(() => t.close());

  const post = (url: string, token: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: bearer(token), payload });
  const grant = (amount: unknown, sourceId: string) =>
    post('/api/credits/add', adminToken, {
      userId: ann.user.id,
      amount,
      sourceType: 'gift',
      sourceId,
    });

  it.each([
    ['true', true],
    ['"5"', '5'],
    ['"1e3"', '1e3'],
    ['[5]', [5]],
    ['null', null],
  ])('refuses amount %s in POST /api/credits/add and grants nothing', async (_label, amount) => {
    const res = await grant(amount, `coerce-${JSON.stringify(amount)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
    expect(res.json().message).toMatch(/^Invalid 'amount': .*\.$/);
    expect(await creditBalance(t.app, ann.token)).toBe(0);
  });

  it.each([
    ['POST /api/credits/add: a numeric sourceId', '/api/credits/add', 'sourceId', 123],
    ['POST /api/credits/add: a numeric description', '/api/credits/add', 'description', 5],
    ['admin adjustment: amount "50"', `/api/admin/users/:id/credits`, 'amount', '50'],
    ['admin adjustment: amount true', `/api/admin/users/:id/credits`, 'amount', true],
    [
      'blog access: canManageBlog "true"',
      `/api/admin/users/:id/blog-access`,
      'canManageBlog',
      'true',
    ],
    ['blog access: canManageBlog 1', `/api/admin/users/:id/blog-access`, 'canManageBlog', 1],
  ])('refuses %s', async (_label, route, field, value) => {
    const base: Record<string, Record<string, unknown>> = {
      '/api/credits/add': { userId: ann.user.id, amount: 5, sourceType: 'gift', sourceId: 'f' },
      '/api/admin/users/:id/credits': { amount: 5, reason: 'Coercion test' },
      '/api/admin/users/:id/blog-access': { canManageBlog: true },
    };
    const res = await post(route.replace(':id', ann.user.id), adminToken, {
      ...base[route],
      [field]: value,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(`'${field}'`);
    expect(await creditBalance(t.app, ann.token)).toBe(0);
  });

  it('refuses a blog post whose tags are one string instead of a list, or whose title is a number', async () => {
    for (const payload of [
      { title: 'Tags', content: '<p>x</p>', tags: 'news' },
      { title: 42, content: '<p>x</p>' },
      { title: 'Status', content: '<p>x</p>', status: ['draft'] },
    ]) {
      const res = await post('/api/blog/admin/posts', editorToken, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
  });

  it('still reads numbers and booleans from the query string and the path', async () => {
    expect((await grant(7, 'query-check')).statusCode).toBe(200);
    const page = await t.app.inject({
      url: `/api/credits/${ann.user.id}/transactions?limit=5&offset=0`,
      headers: bearer(ann.token),
    });
    expect(page.statusCode).toBe(200);
    expect(page.json().data).toMatchObject({ limit: 5, offset: 0, total: 1 });
    const rows = await t.app.inject({
      url: '/api/db/posts?limit=2&ascending=false&orderBy=created_at',
      headers: bearer(editorToken),
    });
    expect(rows.statusCode).toBe(200);
    const list = await t.app.inject({ url: '/api/blog/posts?page=1&limit=3' });
    expect(list.json().data.pagination).toMatchObject({ page: 1, limit: 3 });
  });
});

describe('the part-aware validator (server/core/validation.ts)', () => {
  it('keeps shared schemas, formats and defaults working in bodies and query strings', async () => {
    const app = Fastify({
      ajv: { customOptions: { removeAdditional: false, allErrors: false } },
      schemaController: { compilersFactory: { buildValidator: partAwareValidator() } },
    });
    app.addSchema({
      $id: 'shared',
      type: 'object',
      properties: {
        id: { type: 'string', format: 'uuid' },
        count: { type: 'integer', minimum: 1, default: 1 },
      },
      required: ['id'],
      additionalProperties: false,
    });
    app.post(
      '/echo',
      { schema: { body: { $ref: 'shared#' }, querystring: { $ref: 'shared#' } } },
      async (request) => ({ body: request.body, query: request.query }),
    );
    try {
      const id = '6f0c3c4e-1d6b-4a57-9d39-3a8d7a3f0b11';
      const send = (query: string, payload: object) =>
        app.inject({ method: 'POST', url: `/echo?${query}`, payload });

      const ok = await send(`id=${id}&count=3`, { id });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ body: { id, count: 1 }, query: { id, count: 3 } });

      expect((await send(`id=${id}`, { id, count: '3' })).statusCode).toBe(400);
      expect((await send(`id=${id}`, { id: 'not-a-uuid' })).statusCode).toBe(400);
      expect((await send('id=not-a-uuid', { id })).statusCode).toBe(400);
    } finally {
      await app.close();
    }
  });
});
