// PLACEHOLDER (helper HOOKS replaces this file).
import type { FastifyInstance } from 'fastify';
import type { WebhookService } from './webhooks-service.ts';
export async function webhookRoutes(app: FastifyInstance, opts: { webhooks: WebhookService }) {
  void app;
  void opts;
}
