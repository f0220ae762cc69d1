/**
 * The admin dashboard's daily charts (issue 18): per UTC day over the last N days, ending today,
 *
 * - credits sold: the sum of positive ledger rows whose source is a purchase (a paid checkout,
 *   a paid subscription invoice, a yearly plan's later month, a local subscription renewal; see
 *   PURCHASE_SOURCE_TYPES), by the row's created_at. Refunds, dispute holds and their release,
 *   admin grants and task refunds are not sales and are left out;
 * - videos generated: tasks that succeeded that day (status completed, by completed_at);
 * - failure rate: failed ÷ (succeeded + failed) among the tasks that finished that day, null
 *   on a day none did. A failed task's finish time is its completed_at when set, else its
 *   updated_at (failing is the last write to a task row, as the video service reports it);
 * - latency: completed_at − created_at of the day's succeeded tasks, p50 and p95 by
 *   percentile_cont (interpolated, as on PGlite and PostgreSQL alike), null on a day none did.
 *
 * Every day of the range is in the answer (generate_series), zero or null when nothing happened.
 * Both scans are bounded by created_at so an index serves them (credit_transactions_created_idx,
 * video_tasks_created_id_idx); a task finishes within its deadline (at most 24 hours, plus the
 * overdue sweep's slack), so tasks created from two days before the range are enough. Answers
 * are cached in-process for a minute: the overview loads them on every visit.
 */
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../core/db.ts';
import type { DailyStat } from '../../contracts/admin-stats.ts';

/**
 * Ledger sources that record credits bought: `checkout` (a pack, or a plan's first period
 * without an invoice: billing/fulfillment.ts), `stripe_invoice` (a plan period paid by invoice:
 * fulfillment.ts, webhooks.ts), `subscription_month` (a yearly plan's months 2…12:
 * paid-invoices.ts), `local_renewal` (a local subscription's next period: subscriptions.ts).
 */
export const PURCHASE_SOURCE_TYPES = [
  'checkout',
  'stripe_invoice',
  'subscription_month',
  'local_renewal',
] as const;

/** Tasks finishing in the range were created at most this long before it starts. */
const TASK_LOOKBACK_MS = 2 * 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** How long an answer is served from memory. */
const DAILY_STATS_TTL_MS = 60_000;

export interface DailyStats {
  days: number;
  from: string;
  to: string;
  generatedAt: string;
  series: DailyStat[];
}

/** The UTC days covered (`from`…`to`, inclusive) and the instants the scans are bounded by. */
export interface DailyRange {
  days: number;
  from: string;
  to: string;
  start: Date;
  end: Date;
  tasksCreatedFrom: Date;
}

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/** The last `days` UTC days, today (by `now`) the last of them. */
export function dailyRange(now: Date, days: number): DailyRange {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const start = new Date(today - (days - 1) * DAY_MS);
  return {
    days,
    from: utcDay(start),
    to: utcDay(new Date(today)),
    start,
    end: new Date(today + DAY_MS),
    tasksCreatedFrom: new Date(start.getTime() - TASK_LOOKBACK_MS),
  };
}

/** The one statement behind the charts (exported so a test can EXPLAIN it). */
export function dailyStatsQuery(range: DailyRange): SQL {
  const start = range.start.toISOString();
  const end = range.end.toISOString();
  const purchases = sql.join(
    PURCHASE_SOURCE_TYPES.map((type) => sql`${type}`),
    sql`, `,
  );
  return sql`
    with days as (
      select d::date as day
      from generate_series(${range.from}::date, ${range.to}::date, interval '1 day') as d
    ),
    sold as (
      select (created_at at time zone 'UTC')::date as day, sum(amount) as credits
      from credit_transactions
      where created_at >= ${start}::timestamptz and created_at < ${end}::timestamptz
        and amount > 0 and source_type in (${purchases})
      group by 1
    ),
    finished as (
      select (coalesce(completed_at, updated_at) at time zone 'UTC')::date as day, status,
        extract(epoch from completed_at - created_at) as seconds
      from video_tasks
      where created_at >= ${range.tasksCreatedFrom.toISOString()}::timestamptz
        and created_at < ${end}::timestamptz
        and status in ('completed', 'failed')
        and coalesce(completed_at, updated_at) >= ${start}::timestamptz
        and coalesce(completed_at, updated_at) < ${end}::timestamptz
    ),
    outcomes as (
      select day,
        count(*) filter (where status = 'completed') as succeeded,
        count(*) filter (where status = 'failed') as failed,
        percentile_cont(0.5) within group (order by seconds)
          filter (where status = 'completed') as p50,
        percentile_cont(0.95) within group (order by seconds)
          filter (where status = 'completed') as p95
      from finished
      group by day
    )
    select to_char(days.day, 'YYYY-MM-DD') as day,
      coalesce(sold.credits, 0)::float8 as credits_sold,
      coalesce(outcomes.succeeded, 0)::int as succeeded,
      coalesce(outcomes.failed, 0)::int as failed,
      outcomes.p50::float8 as p50,
      outcomes.p95::float8 as p95
    from days
    left join sold on sold.day = days.day
    left join outcomes on outcomes.day = days.day
    order by days.day`;
}

interface DailyRow {
  day: string;
  credits_sold: number;
  succeeded: number;
  failed: number;
  p50: number | null;
  p95: number | null;
}

/** Seconds to a tenth: enough for a chart, and stable across drivers' float noise. */
const tenths = (seconds: number | null) =>
  seconds === null ? null : Math.round(Number(seconds) * 10) / 10;

function toDailyStat(row: DailyRow): DailyStat {
  const finished = row.succeeded + row.failed;
  return {
    day: row.day,
    creditsSold: Number(row.credits_sold),
    videosGenerated: row.succeeded,
    failedTasks: row.failed,
    failureRate: finished === 0 ? null : row.failed / finished,
    latencyP50Seconds: tenths(row.p50),
    latencyP95Seconds: tenths(row.p95),
  };
}

/** The figures for `range`, read now (uncached). */
async function readDailyStats(db: DbOrTx, range: DailyRange): Promise<DailyStat[]> {
  const rows = await queryRows<DailyRow>(db, dailyStatsQuery(range));
  return rows.map(toDailyStat);
}

/**
 * `(days) => figures`, each answer kept for DAILY_STATS_TTL_MS per day count and last day (so
 * a new UTC day starts a new answer). Concurrent loads of the same key share one query; a failed
 * query is not kept.
 */
export function createDailyStatsReader(deps: {
  db: DbOrTx;
  now: () => Date;
  ttlMs?: number;
}): (days: number, fresh?: boolean) => Promise<DailyStats> {
  const ttlMs = deps.ttlMs ?? DAILY_STATS_TTL_MS;
  const cache = new Map<string, { expiresAt: number; answer: Promise<DailyStats> }>();

  return (days, fresh = false) => {
    const at = deps.now();
    const range = dailyRange(at, days);
    for (const [key, entry] of cache) if (entry.expiresAt <= at.getTime()) cache.delete(key);
    const key = `${days}:${range.to}`;
    const cached = cache.get(key);
    // An admin's Refresh asks for now; the answer replaces the cached one for other loads.
    if (cached && !fresh) return cached.answer;
    const answer = readDailyStats(deps.db, range).then((series) => ({
      days,
      from: range.from,
      to: range.to,
      generatedAt: at.toISOString(),
      series,
    }));
    cache.set(key, { expiresAt: at.getTime() + ttlMs, answer });
    answer.catch(() => {
      if (cache.get(key)?.answer === answer) cache.delete(key);
    });
    return answer;
  };
}
