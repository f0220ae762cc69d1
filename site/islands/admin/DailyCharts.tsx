/**
 * "Last 30 days" on the overview (issue 18): credits sold, videos generated, failure rate and
 * generation time (p50/p95) per UTC day, as four small SVG charts (shared/MiniChart.tsx). Each chart is
 * one image named by a summary of its figures, with the day-by-day values in a table only screen
 * readers see. The figures' definitions are the server's (server/domains/admin/daily-stats.ts).
 */
import type { ReactNode } from 'react';
import type { DailyStat } from '../../../shared/api/admin-stats.ts';
import { DAILY_STATS_DEFAULT_DAYS } from '../../../shared/admin.ts';
import type { DailyStats } from '../../lib/api/admin.ts';
import { Loaded } from './ListStates.tsx';
import MiniChart, { shortDay, type ChartSeries } from '../shared/MiniChart.tsx';
import type { AdminData } from './use-admin-data.ts';

const count = (n: number) => n.toLocaleString();
const percent = (rate: number) =>
  rate.toLocaleString(undefined, { style: 'percent', maximumFractionDigits: 1 });
const seconds = (s: number) => `${s.toLocaleString(undefined, { maximumFractionDigits: 1 })} s`;

/** The day with the highest value (the first such day), or null when no day has one. */
function highest(series: DailyStat[], pick: (d: DailyStat) => number | null) {
  let best: { day: string; value: number } | null = null;
  for (const d of series) {
    const value = pick(d);
    if (value !== null && (best === null || value > best.value)) best = { day: d.day, value };
  }
  return best;
}

/** ", highest 300 on 2026-11-20" for a chart's name; empty when no day has a value. */
const peak = (top: { day: string; value: number } | null, format: (n: number) => string) =>
  top ? `, highest ${format(top.value)} on ${top.day}` : '';

const sum = (series: DailyStat[], pick: (d: DailyStat) => number) =>
  series.reduce((total, d) => total + pick(d), 0);

/** The day-by-day values, for screen readers (also the margin card's, MarginCard.tsx). */
export function FiguresTable({
  caption,
  columns,
  rows,
}: {
  caption: string;
  columns: string[];
  rows: Array<[day: string, ...values: string[]]>;
}) {
  return (
    // The wrapper clips the table: a table grows to its content whatever its own width says.
    <div className="sr-only">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(([day, ...values]) => (
            <tr key={day}>
              <th scope="row">{day}</th>
              {values.map((v, i) => (
                <td key={columns[i]}>{v}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

interface ChartCardProps {
  title: string;
  testId: string;
  /** The headline figure beside the title, e.g. the total. */
  headline: string;
  headlineNote?: string;
  /** When there is nothing to draw: what to say instead. */
  emptyText: string | null;
  children: ReactNode;
}

export function ChartCard({
  title,
  testId,
  headline,
  headlineNote,
  emptyText,
  children,
}: ChartCardProps) {
  return (
    <article className="admin-card admin-chart" data-testid={testId}>
      <h4 className="admin-card__label">{title}</h4>
      {emptyText ? (
        <p className="admin-card__hint">{emptyText}</p>
      ) : (
        <>
          <p className="admin-chart__headline">
            <span className="admin-chart__value">{headline}</span>
            {headlineNote && <span className="admin-card__hint">{headlineNote}</span>}
          </p>
          {children}
        </>
      )}
    </article>
  );
}

function Charts({ data }: { data: DailyStats }) {
  const { series } = data;
  const days = series.map((d) => d.day);
  const span = `last ${data.days} days`;

  const sold = sum(series, (d) => d.creditsSold);
  const soldTop = highest(series, (d) => d.creditsSold);
  const videos = sum(series, (d) => d.videosGenerated);
  const videosTop = highest(series, (d) => d.videosGenerated);
  const failed = sum(series, (d) => d.failedTasks);
  const finished = videos + failed;
  const rateTop = highest(series, (d) => d.failureRate);
  const p95Top = highest(series, (d) => d.latencyP95Seconds);
  const p50s = series.flatMap((d) => (d.latencyP50Seconds === null ? [] : [d.latencyP50Seconds]));
  const latest = [...series].reverse().find((d) => d.latencyP50Seconds !== null);

  if (sold === 0 && finished === 0) {
    return (
      <p className="admin-card__hint admin-daily__empty" data-testid="admin-daily-empty">
        No credits were sold and no video finished in the {span}. The charts fill in as customers
        buy credits and generate videos.
      </p>
    );
  }

  const p50Range =
    p50s.length === 0
      ? ''
      : Math.min(...p50s) === Math.max(...p50s)
        ? `p50 ${seconds(p50s[0]!)}`
        : `p50 between ${seconds(Math.min(...p50s))} and ${seconds(Math.max(...p50s))}`;
  // p95 behind, p50 in front: each day's bar shows both.
  const latencySeries: ChartSeries[] = [
    { name: 'p95', values: series.map((d) => d.latencyP95Seconds), tone: 'info', faded: true },
    { name: 'p50', values: series.map((d) => d.latencyP50Seconds), tone: 'info' },
  ];

  return (
    <div className="admin-daily__grid">
      <ChartCard
        title="Credits sold"
        testId="admin-chart-credits"
        headline={count(sold)}
        headlineNote="credits bought"
        emptyText={sold === 0 ? `No credits were sold in the ${span}.` : null}
      >
        <MiniChart
          days={days}
          format={count}
          series={[{ name: 'Credits', values: series.map((d) => d.creditsSold), tone: 'accent' }]}
          label={`Credits sold per day, ${span}: total ${count(sold)}${peak(soldTop, count)}`}
        />
        <FiguresTable
          caption={`Credits sold per day, ${span}`}
          columns={['Credits sold']}
          rows={series.map((d) => [d.day, count(d.creditsSold)])}
        />
      </ChartCard>

      <ChartCard
        title="Videos generated"
        testId="admin-chart-videos"
        headline={count(videos)}
        headlineNote="succeeded"
        emptyText={videos === 0 ? `No video was generated in the ${span}.` : null}
      >
        <MiniChart
          days={days}
          format={count}
          series={[
            { name: 'Videos', values: series.map((d) => d.videosGenerated), tone: 'success' },
          ]}
          label={`Videos generated per day, ${span}: total ${count(videos)}${peak(videosTop, count)}`}
        />
        <FiguresTable
          caption={`Videos generated per day, ${span}`}
          columns={['Videos generated']}
          rows={series.map((d) => [d.day, count(d.videosGenerated)])}
        />
      </ChartCard>

      <ChartCard
        title="Failure rate"
        testId="admin-chart-failures"
        headline={finished ? percent(failed / finished) : '—'}
        headlineNote={`${count(failed)} failed of ${count(finished)} finished`}
        emptyText={finished === 0 ? `No video task finished in the ${span}.` : null}
      >
        <MiniChart
          days={days}
          format={percent}
          minTop={0.1}
          series={[
            { name: 'Failure rate', values: series.map((d) => d.failureRate), tone: 'danger' },
          ]}
          label={`Failure rate per day, ${span}: ${finished ? percent(failed / finished) : '—'} overall (${count(failed)} failed of ${count(finished)} finished)${peak(rateTop, percent)}`}
        />
        <FiguresTable
          caption={`Failure rate per day, ${span}`}
          columns={['Failure rate', 'Failed', 'Finished']}
          rows={series.map((d) => [
            d.day,
            d.failureRate === null ? 'no task finished' : percent(d.failureRate),
            count(d.failedTasks),
            count(d.failedTasks + d.videosGenerated),
          ])}
        />
      </ChartCard>

      <ChartCard
        title="Generation time"
        testId="admin-chart-latency"
        headline={latest ? seconds(latest.latencyP50Seconds!) : '—'}
        headlineNote={
          latest
            ? `p50 on ${shortDay(latest.day)} (p95 ${seconds(latest.latencyP95Seconds!)})`
            : undefined
        }
        emptyText={
          videos === 0 ? `No video succeeded in the ${span}, so there are no times yet.` : null
        }
      >
        <MiniChart
          days={days}
          format={seconds}
          series={latencySeries}
          label={`Generation time per day, ${span}: ${p50Range}${p95Top ? `, p95 highest ${seconds(p95Top.value)} on ${p95Top.day}` : ''}`}
        />
        <FiguresTable
          caption={`Generation time per day, ${span}, request to playable video`}
          columns={['p50', 'p95']}
          rows={series.map((d) => [
            d.day,
            d.latencyP50Seconds === null ? 'none' : seconds(d.latencyP50Seconds),
            d.latencyP95Seconds === null ? 'none' : seconds(d.latencyP95Seconds),
          ])}
        />
      </ChartCard>
    </div>
  );
}

/** The section; the overview loads its figures (`getDailyStats(DAILY_STATS_DEFAULT_DAYS)`). */
export default function DailyCharts({ state: stats }: { state: AdminData<DailyStats> }) {
  return (
    <section
      className="admin-daily"
      aria-labelledby="admin-daily-title"
      aria-busy={stats.loading}
      data-testid="admin-daily"
    >
      <div className="admin-daily__head">
        <h3 id="admin-daily-title" className="admin-daily__title">
          Last {DAILY_STATS_DEFAULT_DAYS} days
        </h3>
        {stats.data && (
          <p className="admin-card__hint">
            UTC days, {shortDay(stats.data.from)} to {shortDay(stats.data.to)}; updated every
            minute.
          </p>
        )}
      </div>
      <Loaded state={stats} what="the daily figures">
        {(data) => <Charts data={data} />}
      </Loaded>
    </section>
  );
}
