/**
 * The operator's margin per video (issue 37, item 5), per UTC day and per provider:model over the
 * last N days, with totals. A video counts on the day it finished (completed, or failed: its
 * completed_at, else its updated_at, as the daily charts count it) and under the provider and
 * billed model that made it (provider_model; null when no provider accepted the job).
 *
 * - revenue: video_tasks.revenue_usd, written with the charge (the credits charged × the
 *   customer's price per credit then: credits/credit-value.ts) and set to 0 by its refund, so a
 *   failed video brings nothing;
 * - cost: provider_cost_usd, what the provider billed (its report, else content/provider-costs.json);
 * - margin: revenue − cost, and its share of revenue.
 * A task finished without a recorded cost, or charged before revenue was recorded, counts as 0 and
 * is counted apart (withoutCost, withoutRevenue), so the view says what it does not know.
 *
 * One statement: the tasks created from two days before the range (a task finishes within its
 * deadline) are read through video_tasks_created_id_idx, then grouped three ways at once. Sums
 * are numeric and turned into whole millionths here, so margins are exact. Answers are cached
 * in-process for a minute per day count, as the daily charts are.
 */
import { sql, type SQL } from 'drizzle-orm';
import { cachedReading } from '../../core/cached-reading.ts';
import { queryRows, type DbOrTx } from '../../core/db.ts';
import type { MarginDay, MarginFigures, MarginModel } from '../../../shared/api/admin-margin.ts';
import { dailyRange, type DailyRange } from './daily-stats.ts';

const MARGIN_STATS_TTL_MS = 60_000;
const DAY_MS = 24 * 60 * 60 * 1000;
const MICROS = 1_000_000;

export interface MarginStats {
  days: number;
  from: string;
  to: string;
  generatedAt: string;
  series: MarginDay[];
  models: MarginModel[];
  totals: MarginFigures;
}

/** The one statement behind the view (exported so a test can EXPLAIN it). */
export function marginStatsQuery(range: DailyRange): SQL {
  const start = range.start.toISOString();
  const end = range.end.toISOString();
  return sql`
    with finished as (
      select (coalesce(completed_at, updated_at) at time zone 'UTC')::date as day,
        provider, provider_model, status, revenue_usd, provider_cost_usd
      from video_tasks
      where created_at >= ${range.tasksCreatedFrom.toISOString()}::timestamptz
        and created_at < ${end}::timestamptz
        and status in ('completed', 'failed')
        and coalesce(completed_at, updated_at) >= ${start}::timestamptz
        and coalesce(completed_at, updated_at) < ${end}::timestamptz
    )
    select to_char(day, 'YYYY-MM-DD') as day, provider, provider_model,
      grouping(day)::int as no_day, grouping(provider, provider_model)::int as no_model,
      count(*) filter (where status = 'completed')::int as completed,
      count(*) filter (where status = 'failed')::int as failed,
      round(coalesce(sum(revenue_usd), 0) * 1000000)::text as revenue_micros,
      round(coalesce(sum(provider_cost_usd), 0) * 1000000)::text as cost_micros,
      count(*) filter (where provider_cost_usd is null)::int as without_cost,
      count(*) filter (where revenue_usd is null)::int as without_revenue
    from finished
    group by grouping sets ((day), (provider, provider_model), ())`;
}

interface MarginRow {
  day: string | null;
  provider: string | null;
  provider_model: string | null;
  no_day: number;
  no_model: number;
  completed: number;
  failed: number;
  revenue_micros: string;
  cost_micros: string;
  without_cost: number;
  without_revenue: number;
}

const EMPTY: MarginFigures = {
  completed: 0,
  failed: 0,
  revenueUsd: 0,
  costUsd: 0,
  marginUsd: 0,
  marginPercent: null,
  withoutCost: 0,
  withoutRevenue: 0,
};

/** A group's figures, the margin from whole millionths (no float drift). */
function marginFigures(row: {
  completed: number;
  failed: number;
  revenueMicros: number;
  costMicros: number;
  withoutCost: number;
  withoutRevenue: number;
}): MarginFigures {
  const marginMicros = row.revenueMicros - row.costMicros;
  return {
    completed: row.completed,
    failed: row.failed,
    revenueUsd: row.revenueMicros / MICROS,
    costUsd: row.costMicros / MICROS,
    marginUsd: marginMicros / MICROS,
    marginPercent:
      row.revenueMicros === 0 ? null : Math.round((marginMicros / row.revenueMicros) * 1000) / 10,
    withoutCost: row.withoutCost,
    withoutRevenue: row.withoutRevenue,
  };
}

const figuresOf = (row: MarginRow) =>
  marginFigures({
    completed: Number(row.completed),
    failed: Number(row.failed),
    revenueMicros: Number(row.revenue_micros),
    costMicros: Number(row.cost_micros),
    withoutCost: Number(row.without_cost),
    withoutRevenue: Number(row.without_revenue),
  });

/** The figures for `range`, read now (uncached). */
async function readMarginStats(
  db: DbOrTx,
  range: DailyRange,
): Promise<Pick<MarginStats, 'series' | 'models' | 'totals'>> {
  const rows = await queryRows<MarginRow>(db, marginStatsQuery(range));
  const byDay = new Map<string, MarginFigures>();
  const models: MarginModel[] = [];
  let totals = EMPTY;
  for (const row of rows) {
    // grouping(): a bit set for each column the row is not grouped by.
    const no = (value: number) => Number(value) !== 0;
    if (!no(row.no_day)) byDay.set(row.day!, figuresOf(row));
    else if (!no(row.no_model)) {
      models.push({ provider: row.provider!, model: row.provider_model, ...figuresOf(row) });
    } else totals = figuresOf(row);
  }
  const series: MarginDay[] = [];
  for (let at = range.start.getTime(); at < range.end.getTime(); at += DAY_MS) {
    const day = new Date(at).toISOString().slice(0, 10);
    series.push({ day, ...(byDay.get(day) ?? EMPTY) });
  }
  models.sort(
    (a, b) =>
      b.revenueUsd - a.revenueUsd ||
      `${a.provider}:${a.model ?? ''}`.localeCompare(`${b.provider}:${b.model ?? ''}`),
  );
  return { series, models, totals };
}

/**
 * `(days, fresh?) => figures`, each day count's answer kept for a minute (an admin's Refresh
 * reads now); concurrent loads share one query, a failed one is not kept.
 */
export function createMarginStatsReader(deps: {
  db: DbOrTx;
  now: () => Date;
  ttlMs?: number;
}): (days: number, fresh?: boolean) => Promise<MarginStats> {
  const readers = new Map<number, (fresh?: boolean) => Promise<MarginStats>>();
  const readerFor = (days: number) =>
    cachedReading(
      async (at) => {
        const range = dailyRange(at, days);
        return {
          days,
          from: range.from,
          to: range.to,
          generatedAt: at.toISOString(),
          ...(await readMarginStats(deps.db, range)),
        };
      },
      { ttlMs: deps.ttlMs ?? MARGIN_STATS_TTL_MS, now: deps.now },
    );
  return (days, fresh = false) => {
    let reader = readers.get(days);
    if (!reader) readers.set(days, (reader = readerFor(days)));
    return reader(fresh);
  };
}
