/**
 * The API's OpenAPI description, built from the route schemas, and its pages at /api/docs.
 * Register the spec before any route (it collects them as they are added) and the pages after
 * the auth plugin (their scope takes the request hooks registered before it).
 *
 * In production the description covers only the public API (issue 34, finding 9): the routes a
 * customer calls, signed in or not. Operators' routes (administrators, blog editors, the status
 * and metrics checks, health probes) and the webhooks Stripe and the video providers call, which
 * check signatures no customer holds, are left out; API_DOCS=all documents every route.
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
  return (access === 'public' || access === 'user') && !tags.some((t) => OPERATOR_TAGS.has(t));
}

export const apiSpecPlugin = fp(
  async (app: FastifyInstance, opts: { version: string; routes: 'public' | 'all' }) => {
    await app.register(swagger, {
      ...(opts.routes === 'public' && {
        transform: ({ schema, url, route }) => ({
          schema: isPublicApi(route) ? schema : { ...schema, hide: true },
          url,
        }),
      }),
      openapi: {
        info: {
          title: 'Veo3 Studio API',
          version: opts.version,
          description: 'Sign-in, credits, payments, video generation and blog.',
        },
        components: {
          securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
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
