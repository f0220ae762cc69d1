/**
 * The overview's headline counts (customers, tasks by status, paid checkouts and revenue, webhook
 * events and customers' webhook deliveries of the last 24 hours). Each is a count or GROUP BY over
 * a whole table, which grows with the business (issue 19: 200 ms at 100k users), so an answer is
 * kept in memory for 30 seconds: every visit and tab within that window shares one reading, and
 * the admin's Refresh (`fresh=true`) reads now and replaces it. The answer says when it was
 * counted (`countedAt`).
 */
import { cachedReading } from '../../core/cached-reading.ts';
import type { DbOrTx } from '../../core/db.ts';
import type { TaskCounts } from '../../contracts/admin.ts';
import * as repo from './repository.ts';
import { webhookDeliveryCounts, type WebhookDeliveryCounts } from './webhook-counts.ts';

/** How long one reading of the counts is served. */
export const OVERVIEW_TTL_MS = 30_000;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface OverviewCounts {
  users: number;
  tasks: TaskCounts;
  payments: { paid: number; revenueCents: Record<string, number> };
  webhooksLast24h: number;
  customerWebhooks24h: WebhookDeliveryCounts;
  countedAt: string;
}

/** `(fresh?) => counts`, one reading per OVERVIEW_TTL_MS (core/cached-reading.ts). */
export function createOverviewReader(deps: {
  db: DbOrTx;
  now: () => Date;
  ttlMs?: number;
}): (fresh?: boolean) => Promise<OverviewCounts> {
  async function read(at: Date): Promise<OverviewCounts> {
    const since = new Date(at.getTime() - DAY_MS);
    const [users, tasks, payments, webhooksLast24h, customerWebhooks24h] = await Promise.all([
      repo.customerCount(deps.db),
      repo.taskCounts(deps.db),
      repo.paymentTotals(deps.db),
      repo.webhooksSince(deps.db, since),
      webhookDeliveryCounts(deps.db, since),
    ]);
    const countedAt = at.toISOString();
    return { users, tasks, payments, webhooksLast24h, customerWebhooks24h, countedAt };
  }

  return cachedReading(read, { ttlMs: deps.ttlMs ?? OVERVIEW_TTL_MS, now: deps.now });
}
