// PLACEHOLDER (helper HOOKS replaces this file).
import type { Config } from '../../config.ts';
import type { Db } from '../../core/db.ts';
export function createWebhookService(deps: { db: Db; config: Config }) {
  void deps;
  return {};
}
export type WebhookService = ReturnType<typeof createWebhookService>;
