// PLACEHOLDER (helper HOOKS replaces this file).
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../core/db.ts';
import type { Mailer } from '../../core/mailer.ts';
import type { Metrics } from '../../core/metrics.ts';
export function createWebhookDispatcher(deps: {
  db: Db;
  config: Config;
  mailer: Mailer;
  log: FastifyBaseLogger;
  metrics: Metrics;
  now?: (() => Date) | undefined;
}) {
  void deps;
  return { start() {}, stop: async () => {}, runOnce: async () => 0 };
}
export type WebhookDispatcher = ReturnType<typeof createWebhookDispatcher>;
