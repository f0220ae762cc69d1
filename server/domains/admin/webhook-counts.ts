/**
 * The overview's figures of customers' webhooks (issue 36, item 7): the delivery attempts of a
 * period by what they led to, and the endpoints disabled in it. Read from the tables the api
 * domain's dispatcher writes, so every instance's sends are counted.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../core/db.ts';

export interface WebhookDeliveryCounts {
  /** Attempts that delivered. */
  sent: number;
  /** Attempts that failed and gave up (24 hours of retries passed, a 410, a disabled endpoint). */
  failed: number;
  /** Attempts that failed and were scheduled again. */
  retried: number;
  endpointsDisabled: number;
}

/**
 * Counts since `since`: attempts by outcome (webhook_attempts_attempted_idx, an index-only range)
 * and endpoints disabled (webhook_endpoints_disabled_idx).
 */
export async function webhookDeliveryCounts(
  db: DbOrTx,
  since: Date,
): Promise<WebhookDeliveryCounts> {
  const from = sql`${since.toISOString()}::timestamptz`;
  const [attempts, disabled] = await Promise.all([
    queryRows<{ outcome: string; n: number }>(
      db,
      sql`select outcome, count(*)::int as n from webhook_attempts
          where attempted_at > ${from} group by outcome`,
    ),
    queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from webhook_endpoints
          where disabled_at is not null and disabled_at > ${from}`,
    ),
  ]);
  const of = (outcome: string) => attempts.find((row) => row.outcome === outcome)?.n ?? 0;
  return {
    sent: of('delivered'),
    failed: of('failed'),
    retried: of('retried'),
    endpointsDisabled: disabled[0]?.n ?? 0,
  };
}
