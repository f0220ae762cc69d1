/**
 * "Margin, last 30 days" on the overview (issue 37, item 5): what the videos that finished brought
 * in (their credits at the price each customer paid per credit), what the providers billed for
 * them, and the difference, in total, per UTC day (two charts on one scale, DailyCharts.tsx's
 * cards) and per provider:model (a table). The figures' definitions are the server's
 * (server/domains/admin/margin-stats.ts).
 */
import { useCallback, useEffect, useRef } from 'react';
import type { MarginFigures, MarginModel } from '../../../shared/api/admin-margin.ts';
import { DAILY_STATS_DEFAULT_DAYS } from '../../../shared/admin.ts';
import { getMarginStats, type MarginStats } from '../../lib/api/admin.ts';
import MiniChart, { shortDay } from '../shared/MiniChart.tsx';
import { ChartCard, FiguresTable } from './DailyCharts.tsx';
import DataTable, { type Column } from './DataTable.tsx';
import Facts from './Facts.tsx';
import { Loaded } from './ListStates.tsx';
import { useAdminData } from './use-admin-data.ts';

/** Dollars as the admin's locale writes them; cents shown, and more below a dollar's tenth. */
const usd = (value: number) =>
  value.toLocaleString(undefined, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: Math.abs(value) > 0 && Math.abs(value) < 0.1 ? 4 : 2,
  });
const percent = (value: number | null) =>
  value === null ? '—' : `${value.toLocaleString(undefined, { maximumFractionDigits: 1 })} %`;
const count = (n: number) => n.toLocaleString();

/** The margin, red when the videos lose money. */
function Margin({ figures }: { figures: MarginFigures }) {
  const loss = figures.marginUsd < 0;
  return (
    <span className={loss ? 'admin-text-bad' : undefined}>
      {usd(figures.marginUsd)}
      {figures.marginPercent !== null && ` (${percent(figures.marginPercent)})`}
      {loss && <span className="sr-only"> loss</span>}
    </span>
  );
}

/** What the figures leave out, when anything. */
/** One USD series of the last days, with its total as the card's headline. */
function SeriesChart(props: {
  title: string;
  testId: string;
  total: number;
  note: string;
  name: string;
  values: number[];
  tone: 'success' | 'danger';
  label: string;
  days: string[];
  top: number;
}) {
  return (
    <ChartCard
      title={props.title}
      testId={props.testId}
      headline={usd(props.total)}
      headlineNote={props.note}
      emptyText={null}
    >
      <MiniChart
        days={props.days}
        format={usd}
        minTop={props.top}
        series={[{ name: props.name, values: props.values, tone: props.tone }]}
        label={`${props.label}: total ${usd(props.total)}`}
      />
    </ChartCard>
  );
}

function gaps(figures: MarginFigures): string | null {
  const parts = [
    figures.withoutCost > 0 &&
      `${count(figures.withoutCost)} finished without a recorded provider cost`,
    figures.withoutRevenue > 0 &&
      `${count(figures.withoutRevenue)} charged before revenue was recorded`,
  ].filter(Boolean);
  return parts.length ? `Counted as $0: ${parts.join('; ')}.` : null;
}

type ModelRow = MarginModel & { id: string };
const modelName = (m: MarginModel) => `${m.provider}:${m.model ?? '(not accepted)'}`;

const MODEL_COLUMNS: readonly Column<ModelRow>[] = [
  {
    header: 'Provider:model',
    unlabelled: true,
    className: 'is-wide',
    cell: (m) => <code>{modelName(m)}</code>,
  },
  { header: 'Completed', numeric: true, cell: (m) => count(m.completed) },
  { header: 'Failed', numeric: true, cell: (m) => count(m.failed) },
  { header: 'Revenue', numeric: true, cell: (m) => usd(m.revenueUsd) },
  { header: 'Provider cost', numeric: true, cell: (m) => usd(m.costUsd) },
  { header: 'Margin', numeric: true, cell: (m) => <Margin figures={m} /> },
];

function Figures({ data }: { data: MarginStats }) {
  const { series, totals } = data;
  const span = `last ${data.days} days`;
  const finished = totals.completed + totals.failed;
  if (finished === 0) {
    return (
      <p className="admin-card__hint admin-daily__empty" data-testid="admin-margin-empty">
        No video finished in the {span}. Revenue, cost and margin fill in as customers generate
        videos.
      </p>
    );
  }
  const days = series.map((d) => d.day);
  // Both charts on one scale, so their bars compare.
  const top = Math.max(...series.map((d) => Math.max(d.revenueUsd, d.costUsd)));
  const note = gaps(totals);
  return (
    <>
      <Facts
        facts={[
          ['Completed', count(totals.completed)],
          ['Failed (refunded)', count(totals.failed)],
          ['Revenue', usd(totals.revenueUsd)],
          ['Provider cost', usd(totals.costUsd)],
          ['Margin', <Margin figures={totals} />],
        ]}
      />
      {note && <p className="admin-card__hint">{note}</p>}
      <div className="admin-daily__grid">
        <SeriesChart
          title="Revenue"
          testId="admin-chart-revenue"
          total={totals.revenueUsd}
          note="credits spent × price paid per credit"
          name="Revenue"
          values={series.map((d) => d.revenueUsd)}
          tone="success"
          label={`Revenue per day, ${span}`}
          {...{ days, top }}
        />
        <SeriesChart
          title="Provider cost"
          testId="admin-chart-cost"
          total={totals.costUsd}
          note="billed by the providers"
          name="Cost"
          values={series.map((d) => d.costUsd)}
          tone="danger"
          label={`Provider cost per day, ${span}`}
          {...{ days, top }}
        />
      </div>
      <FiguresTable
        caption={`Revenue, provider cost and margin per day, ${span}`}
        columns={['Completed', 'Failed', 'Revenue', 'Provider cost', 'Margin', 'Margin %']}
        rows={series.map((d) => [
          d.day,
          count(d.completed),
          count(d.failed),
          usd(d.revenueUsd),
          usd(d.costUsd),
          usd(d.marginUsd),
          percent(d.marginPercent),
        ])}
      />
      <DataTable
        columns={MODEL_COLUMNS}
        rows={data.models.map((m) => ({ ...m, id: modelName(m) }))}
        captionId="admin-margin-models"
        caption={`Per provider:model, ${span}, highest revenue first`}
        rowTestId="admin-margin-model"
      />
    </>
  );
}

/**
 * The section. `refreshed` is the overview's answer: a new one (its Refresh button) reloads these
 * figures as of now too; the first load takes the minute-old answer like the charts do.
 */
export default function MarginCard({ refreshed }: { refreshed: unknown }) {
  const fresh = useRef(false);
  const load = useCallback(() => getMarginStats(DAILY_STATS_DEFAULT_DAYS, fresh.current), []);
  const stats = useAdminData(load);
  const seen = useRef(refreshed);
  const { reload } = stats;
  useEffect(() => {
    if (seen.current === refreshed) return;
    seen.current = refreshed;
    fresh.current = true;
    reload();
  }, [refreshed, reload]);
  return (
    <section
      className="admin-daily"
      aria-labelledby="admin-margin-title"
      aria-busy={stats.loading}
      data-testid="admin-margin"
    >
      <div className="admin-daily__head">
        <h3 id="admin-margin-title" className="admin-daily__title">
          Margin, last {DAILY_STATS_DEFAULT_DAYS} days
        </h3>
        {stats.data && (
          <p className="admin-card__hint">
            Videos by the UTC day they finished, {shortDay(stats.data.from)} to{' '}
            {shortDay(stats.data.to)}; a failed video is refunded and brings nothing; updated every
            minute.
          </p>
        )}
      </div>
      <Loaded state={stats} what="the margin figures">
        {(data) => <Figures data={data} />}
      </Loaded>
    </section>
  );
}
