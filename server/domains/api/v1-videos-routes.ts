// PLACEHOLDER (helper V1 replaces this file).
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { VideoService } from '../video/service.ts';
import type { Idempotency } from './idempotency.ts';
import type { WebhookService } from './webhooks-service.ts';
export async function v1VideoRoutes(
  scope: FastifyInstance,
  opts: { video: VideoService; idempotency: Idempotency; config: Config; webhooks: WebhookService },
) {
  void scope;
  void opts;
}
