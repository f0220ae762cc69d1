/**
 * The check that no query or path number is infinite (ajv turns `1e309` into Infinity and then
 * skips `maximum`) runs on the routes whose schemas can make a number, and only there: the others
 * pay no hook for it (issue 33, per-request work).
 */
import Fastify from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorsPlugin } from '../../server/core/errors.ts';
import { hasNumbers, requestInputPlugin } from '../../server/core/request-input.ts';

describe('hasNumbers', () => {
  it('finds a number or an integer anywhere in a schema', () => {
    expect(hasNumbers(Type.Object({ limit: Type.Integer({ maximum: 100 }) }))).toBe(true);
    expect(hasNumbers(Type.Object({ at: Type.Optional(Type.Number()) }))).toBe(true);
    expect(hasNumbers(Type.Object({ n: Type.Union([Type.String(), Type.Number()]) }))).toBe(true);
    expect(hasNumbers({ type: ['string', 'integer'] })).toBe(true);
    expect(hasNumbers(Type.Object({ id: Type.String({ format: 'uuid' }) }))).toBe(false);
    expect(hasNumbers(Type.Object({ on: Type.Boolean() }))).toBe(false);
    expect(hasNumbers(undefined)).toBe(false);
  });
});

describe('the infinite-number check', () => {
  const app = Fastify();
  const preHandlers = new Map<string, number>();
  beforeAll(async () => {
    await app.register(errorsPlugin);
    await app.register(requestInputPlugin);
    // After the plugin's own onRoute hook: sees what it left on each route.
    app.addHook('onRoute', (route) => {
      preHandlers.set(route.url, [route.preHandler ?? []].flat().length);
    });
    const query = Type.Object({ at: Type.Number({ minimum: 0, maximum: 10 }) });
    app.get('/numbers', { schema: { querystring: query } }, async (request) => request.query);
    const params = Type.Object({ id: Type.String() });
    app.get('/strings/:id', { schema: { params } }, async (request) => request.params);
    await app.ready();
  });
  afterAll(() => app.close());

  it('refuses an infinite query number where the schema makes numbers', async () => {
    const res = await app.inject({ method: 'GET', url: '/numbers?at=1e309' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
    expect((await app.inject({ method: 'GET', url: '/numbers?at=5' })).json()).toEqual({ at: 5 });
  });

  it('adds no hook to a route whose query and parameters hold no number', async () => {
    expect(preHandlers.get('/numbers')).toBe(1);
    expect(preHandlers.get('/strings/:id')).toBe(0);
    const res = await app.inject({ method: 'GET', url: '/strings/1e309' });
    expect(res.json()).toEqual({ id: '1e309' });
  });
});
