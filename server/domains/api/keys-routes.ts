// PLACEHOLDER (helper KEYS replaces this file).
import type { FastifyInstance } from 'fastify';
import type { ApiKeyService } from './keys-service.ts';
export async function apiKeyRoutes(app: FastifyInstance, opts: { apiKeys: ApiKeyService }) {
  void app;
  void opts;
}
