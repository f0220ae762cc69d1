// PLACEHOLDER (helper KEYS replaces this file).
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { ApiKeyService } from './keys-service.ts';
export async function v1Frame(
  scope: FastifyInstance,
  opts: { apiKeys: ApiKeyService; config: Config },
) {
  void scope;
  void opts;
}
