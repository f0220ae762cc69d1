/**
 * Issue 36: /api/docs describes /v1 as part of the public API (OpenAPI 3.1, from the route
 * schemas): each /v1 route under the tag v1 with the API-key bearer scheme, its closed bodies and
 * the Idempotency-Key header of its POSTs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

interface Operation {
  tags?: string[];
  security?: unknown;
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content: Record<string, { schema: { additionalProperties?: boolean } }> };
}

describe('/api/docs and /v1', () => {
  let t: TestApp;
  let spec: {
    openapi: string;
    paths: Record<string, Record<string, Operation>>;
    components: { securitySchemes: Record<string, unknown> };
  };
  beforeAll(async () => {
    // The production choice (public routes only) without the production settings.
    t = await createTestApp('pglite', { env: { API_DOCS: 'public' } });
    spec = (await t.app.inject({ url: '/api/docs/json' })).json();
  });
  afterAll(() => t.close());

  it('is OpenAPI 3.1 and lists every /v1 route with the API-key scheme and tag v1', () => {
    expect(spec.openapi).toBe('3.1.0');
    expect(spec.components.securitySchemes.apiKey).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    const v1 = Object.entries(spec.paths).filter(([path]) => path.startsWith('/v1'));
    expect(v1.map(([path]) => path).sort()).toEqual([
      '/v1/credits',
      '/v1/quote',
      '/v1/videos',
      '/v1/videos/{id}',
      '/v1/videos/{id}/extend',
    ]);
    for (const [, methods] of v1) {
      for (const operation of Object.values(methods)) {
        expect(operation.tags).toEqual(['v1']);
        expect(operation.security).toEqual([{ apiKey: [] }]);
      }
    }
  });

  it('documents closed bodies and the Idempotency-Key header of POST /v1/videos', () => {
    const create = spec.paths['/v1/videos']!.post!;
    const body = create.requestBody!.content['application/json']!.schema;
    expect(body.additionalProperties).toBe(false);
    expect(create.parameters).toContainEqual(
      expect.objectContaining({ in: 'header', name: 'idempotency-key' }),
    );
    // The site's own routes keep their session scheme (none declared per route).
    expect(spec.paths['/api/video/history']!.get!.security).toBeUndefined();
  });
});
