/**
 * The API's OpenAPI 3.1 description, built from the route schemas, and its pages at /api/docs.
 * Register the spec before any route (it collects them as they are added) and the pages after
 * the auth plugin (their scope takes the request hooks registered before it).
 *
 * In production the description covers only the public API (issue 34, finding 9): the routes a
 * customer calls, signed in or not, and the developers' /v1 (issue 36: an API key, the `apiKey`
 * bearer scheme on each of its routes). Operators' routes (administrators, blog editors, the
 * status and metrics checks, health probes) and the webhooks Stripe and the video providers call,
 * which check signatures no customer holds, are left out; API_DOCS=all documents every route.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { declareScopeAccess } from './access.ts';

/** Tags of routes that are for operators although anyone may call them (admin sign-in, health). */
const OPERATOR_TAGS = new Set(['admin', 'blog-admin', 'health']);

/** Whether a route belongs to the public API: for anyone or any signed-in customer, no operator. */
function isPublicApi(route: RouteOptions): boolean {
  const access = route.config?.access;
  const tags = (route.schema as { tags?: string[] } | undefined)?.tags ?? [];
  const customer = access === 'public' || access === 'user' || access === 'api-key';
  return customer && !tags.some((t) => OPERATOR_TAGS.has(t));
}

/** A /v1 route is called with a developer's key, never a session. */
const V1_SECURITY = [{ apiKey: [] }];

export const apiSpecPlugin = fp(
  async (app: FastifyInstance, opts: { version: string; routes: 'public' | 'all' }) => {
    await app.register(swagger, {
      transform: ({ schema, url, route }) => {
        const documented = opts.routes === 'all' || isPublicApi(route);
        const security = route.config?.access === 'api-key' ? { security: V1_SECURITY } : {};
        return { schema: documented ? { ...schema, ...security } : { ...schema, hide: true }, url };
      },
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Veo3 Studio API',
          version: opts.version,
          description:
            "The developers' API is /v1 (tag v1): `Authorization: Bearer vs_live_…` with a key from /account/api, JSON in and out, `Idempotency-Key` on every POST, errors as `{ error: { code, message, param? } }`. Codes, limits, idempotency and webhook rules: docs/api.md. The other routes are the site's own (sign-in, credits, payments, video generation and blog).",
        },
        tags: [
          {
            name: 'v1',
            description:
              'The public API for developers: videos, quotes and credits with an API key (issue 36).',
          },
        ],
        components: {
          securitySchemes: {
            bearer: { type: 'http', scheme: 'bearer' },
            apiKey: {
              type: 'http',
              scheme: 'bearer',
              bearerFormat: 'vs_live_…',
              description:
                'An API key from /account/api (scopes videos:write, videos:read, credits:read).',
            },
          },
        },
      },
    });
  },
  { name: 'api-spec' },
);

export const apiDocsPlugin = fp(
  async (app: FastifyInstance) => {
    // The docs are public; the UI plugin takes no route options, so its scope declares it.
    await app.register(async (scope) => {
      declareScopeAccess(scope, 'public');
      await scope.register(swaggerUi, { routePrefix: '/api/docs' });
    });
  },
  { name: 'api-docs', dependencies: ['access', 'api-spec'] },
);
