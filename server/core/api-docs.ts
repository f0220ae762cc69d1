/**
 * The API's OpenAPI description, built from the route schemas, and its pages at /api/docs.
 * Register the spec before any route (it collects them as they are added) and the pages after
 * the auth plugin (their scope takes the request hooks registered before it).
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { declareScopeAccess } from './access.ts';

export const apiSpecPlugin = fp(
  async (app: FastifyInstance, opts: { version: string }) => {
    await app.register(swagger, {
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
