// PLACEHOLDER (helper KEYS replaces this file).
import type { Db } from '../../core/db.ts';
export function createApiKeyService(deps: { db: Db }) {
  void deps;
  return {};
}
export type ApiKeyService = ReturnType<typeof createApiKeyService>;
