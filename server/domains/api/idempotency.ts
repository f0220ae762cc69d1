// PLACEHOLDER (helper V1 replaces this file).
import type { Db } from '../../core/db.ts';
export function createIdempotency(deps: { db: Db; now?: (() => Date) | undefined }) {
  void deps;
  return {};
}
export type Idempotency = ReturnType<typeof createIdempotency>;
