/**
 * HTTP for developers' keys (issue 36, item 1): the session's own keys behind /account/api, and
 * an admin's view of a customer's keys with revocation (recorded in the audit trail).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { currentUser } from '../../core/auth.ts';
import { ErrorResponse } from '../../contracts/common.ts';
import { IdParams } from '../../contracts/admin.ts';
import {
  ApiKeyIdParams,
  ApiKeyListResponse,
  CreateApiKeyBody,
  CreatedApiKeyResponse,
} from '../../contracts/api-keys.ts';
import { MAX_API_KEYS } from '../../../shared/public-api.ts';
import { adminName } from '../admin/service.ts';
import type { ApiKeyService } from './keys-service.ts';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
  429: ErrorResponse,
};

/** Key creations a user may make a minute: far above any person's need, a bound on a script. */
const CREATES_PER_MINUTE = 20;

export async function apiKeyRoutes(fastify: FastifyInstance, opts: { apiKeys: ApiKeyService }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { apiKeys } = opts;
  const tags = ['api-keys'];
  const security = [{ bearer: [] }];

  app.get(
    '/api/account/api-keys',
    {
      config: { access: 'user' },
      schema: {
        tags,
        security,
        summary: "The signed-in user's API keys, newest first (revoked ones too; never the key)",
        response: { 200: ApiKeyListResponse, ...errors },
      },
    },
    async (request) => {
      const items = await apiKeys.list(currentUser(request).id);
      return { success: true as const, data: { items, max: MAX_API_KEYS } };
    },
  );

  app.post(
    '/api/account/api-keys',
    {
      config: {
        access: 'user',
        // Per user, after the session is read (the session read is the route's first hook).
        rateLimit: {
          max: CREATES_PER_MINUTE,
          timeWindow: '1 minute',
          keyGenerator: (request: FastifyRequest) =>
            `api-key-create:${request.user?.id ?? request.ip}`,
        },
      },
      schema: {
        tags,
        security,
        summary: `Create an API key (at most ${MAX_API_KEYS} active); the answer shows the full key once`,
        body: CreateApiKeyBody,
        response: { 201: CreatedApiKeyResponse, ...errors },
      },
    },
    async (request, reply) => {
      const created = await apiKeys.create(currentUser(request).id, request.body);
      return reply.status(201).send({ success: true as const, data: created });
    },
  );

  app.delete(
    '/api/account/api-keys/:id',
    {
      config: { access: 'user' },
      schema: {
        tags,
        security,
        summary: 'Revoke one of your API keys (at once: its next request is refused)',
        params: ApiKeyIdParams,
        response: { 204: Type.Null({ description: 'Revoked' }), ...errors },
      },
    },
    async (request, reply) => {
      await apiKeys.revoke(currentUser(request).id, request.params.id);
      return reply.status(204).send(null);
    },
  );

  const admin = { tags: ['admin'], security };

  app.get(
    '/api/admin/users/:id/api-keys',
    {
      config: { access: 'admin' },
      schema: {
        ...admin,
        summary: "A customer's API keys (prefix, scopes, last use), newest first",
        params: IdParams,
        response: { 200: ApiKeyListResponse, ...errors },
      },
    },
    async (request) => {
      const items = await apiKeys.listForUser(request.params.id);
      return { success: true as const, data: { items, max: MAX_API_KEYS } };
    },
  );

  app.delete(
    '/api/admin/api-keys/:id',
    {
      config: { access: 'admin' },
      schema: {
        ...admin,
        summary: "Revoke a customer's API key (recorded in the audit log)",
        params: ApiKeyIdParams,
        response: { 204: Type.Null({ description: 'Revoked' }), ...errors },
      },
    },
    async (request, reply) => {
      await apiKeys.revokeByAdmin(request.params.id, adminName(currentUser(request)));
      return reply.status(204).send(null);
    },
  );
}
