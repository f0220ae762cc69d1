/**
 * HTTP for a user's webhook endpoints behind /account/api (issue 36, item 4): the routes listed
 * in shared/public-api.ts, for the session only. Changes are rate-limited per user: each one
 * writes, and a resend makes us send a request to someone's server.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { currentUser } from '../../core/auth.ts';
import { ErrorResponse } from '../../contracts/common.ts';
import {
  CreateWebhookBody,
  DeliveriesQuery,
  DeliveryPageResponse,
  DeliveryResponse,
  EndpointWithSecretResponse,
  RequestSecretResponse,
  WebhookIdParams,
  WebhookListResponse,
} from '../../contracts/webhooks.ts';
import { MAX_WEBHOOK_ENDPOINTS } from '../../../shared/public-api.ts';
import type { WebhookService } from './webhooks-service.ts';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
  429: ErrorResponse,
};

/** Changes a user may make a minute: far above a person's need, a bound on a script. */
const CHANGES_PER_MINUTE = 30;

/** A route's per-user budget of changes (after the session is read: preHandler). */
const perUser = (name: string) => ({
  max: CHANGES_PER_MINUTE,
  timeWindow: '1 minute',
  hook: 'preHandler' as const,
  keyGenerator: (request: FastifyRequest) => `webhooks-${name}:${request.user?.id ?? request.ip}`,
});

export async function webhookRoutes(fastify: FastifyInstance, opts: { webhooks: WebhookService }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { webhooks } = opts;
  const tags = ['webhooks'];
  const security = [{ bearer: [] }];
  const ok = <T>(data: T) => ({ success: true as const, data });

  app.get(
    '/api/account/webhooks',
    {
      config: { access: 'user' },
      schema: {
        tags,
        security,
        summary: "The signed-in user's webhook endpoints and request secret (never a secret)",
        response: { 200: WebhookListResponse, ...errors },
      },
    },
    async (request) => ok(await webhooks.list(currentUser(request).id)),
  );

  app.post(
    '/api/account/webhooks',
    {
      config: { access: 'user', rateLimit: perUser('create') },
      schema: {
        tags,
        security,
        summary: `Register a webhook endpoint (at most ${MAX_WEBHOOK_ENDPOINTS}); the answer shows its signing secret once`,
        body: CreateWebhookBody,
        response: { 201: EndpointWithSecretResponse, ...errors },
      },
    },
    async (request, reply) => {
      const created = await webhooks.create(currentUser(request).id, request.body);
      return reply.status(201).send(ok(created));
    },
  );

  app.delete(
    '/api/account/webhooks/:id',
    {
      config: { access: 'user', rateLimit: perUser('delete') },
      schema: {
        tags,
        security,
        summary: 'Remove a webhook endpoint (or the request secret) with its deliveries',
        // Any text, not only a uuid: another word after /webhooks/ answers 404 like an unknown id.
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 204: Type.Null({ description: 'Removed' }), ...errors },
      },
    },
    async (request, reply) => {
      await webhooks.remove(currentUser(request).id, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/account/webhooks/:id/rotate',
    {
      config: { access: 'user', rateLimit: perUser('rotate') },
      schema: {
        tags,
        security,
        summary: 'A new signing secret, shown once; the previous one also signs for 24 hours',
        params: WebhookIdParams,
        response: { 200: EndpointWithSecretResponse, ...errors },
      },
    },
    async (request) => ok(await webhooks.rotate(currentUser(request).id, request.params.id)),
  );

  app.post(
    '/api/account/webhooks/request-secret',
    {
      config: { access: 'user', rateLimit: perUser('request-secret') },
      schema: {
        tags,
        security,
        summary:
          "Create (or rotate) the secret that signs events sent to a request's own webhook_url",
        response: { 200: RequestSecretResponse, ...errors },
      },
    },
    async (request) => ok(await webhooks.requestSecret(currentUser(request).id)),
  );

  app.get(
    '/api/account/webhooks/:id/deliveries',
    {
      config: { access: 'user' },
      schema: {
        tags,
        security,
        summary: "An endpoint's deliveries, newest first, with each attempt's status and answer",
        params: WebhookIdParams,
        querystring: DeliveriesQuery,
        response: { 200: DeliveryPageResponse, ...errors },
      },
    },
    async (request) => {
      const { cursor, limit } = request.query;
      const userId = currentUser(request).id;
      return ok(await webhooks.deliveries(userId, request.params.id, cursor, limit));
    },
  );

  app.post(
    '/api/account/webhooks/deliveries/:id/resend',
    {
      config: { access: 'user', rateLimit: perUser('resend') },
      schema: {
        tags,
        security,
        summary: 'Send a delivery again, with the same webhook-id and body',
        params: WebhookIdParams,
        response: { 200: DeliveryResponse, ...errors },
      },
    },
    async (request) => ok(await webhooks.resend(currentUser(request).id, request.params.id)),
  );
}
