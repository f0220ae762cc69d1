/**
 * A small hand-drawn SVG bar chart of one value per day. Several series overlap, each drawn over
 * the one before (p95 behind p50: the smaller value in front), so one chart holds a range. It
 * stretches to its box, so it fills a card at any width; its text stays in HTML around it, where
 * nothing stretches. The SVG is one image to assistive technology (`label` is its name); the
 * caller puts the figures in a table for screen readers.
 */

type ChartTone = 'accent' | 'info' | 'danger' | 'success';

export interface ChartSeries {
  name: string;
  /** One per day; null: no value that day (no bar). */
  values: (number | null)[];
  tone: ChartTone;
  /** Drawn paler: the series behind another. */
  faded?: boolean;
}

interface MiniChartProps {
  /** Drawn in order, each over the one before. */
  series: ChartSeries[];
  /** `YYYY-MM-DD`, one per value. */
  days: string[];
  /** The chart's accessible name: what it shows and its main figures. */
  label: string;
  format: (value: number) => string;
  /** The top of the scale is at least this (a failure rate of 2 % should not fill the box). */
  minTop?: number;
}

/** Width of one day in viewBox units; the height is 100 units, the top 4 left as air. */
const STEP = 10;
const HEIGHT = 100;
const PLOT = 96;

/** "Nov 20": a UTC day in the admin's locale. */
export function shortDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return date.toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

const toneClass = (s: ChartSeries) => `tone-${s.tone}${s.faded ? ' is-faded' : ''}`;

export default function MiniChart({ series, days, label, format, minTop = 0 }: MiniChartProps) {
  const top = Math.max(
    minTop,
    ...series.flatMap((s) => s.values.filter((v): v is number => v !== null)),
  );
  const scale = top > 0 ? top : 1;
  const y = (value: number) => HEIGHT - (value / scale) * PLOT;
  const width = Math.max(1, days.length) * STEP;

  return (
    <div className="mini-chart">
      <div className="mini-chart__plot">
        <span className="mini-chart__top" aria-hidden="true">
          {format(top)}
        </span>
        <svg
          role="img"
          aria-label={label}
          viewBox={`0 0 ${width} ${HEIGHT}`}
          preserveAspectRatio="none"
          focusable="false"
        >
          <line
            className="mini-chart__grid"
            x1={0}
            x2={width}
            y1={HEIGHT - PLOT}
            y2={HEIGHT - PLOT}
          />
          <line className="mini-chart__base" x1={0} x2={width} y1={HEIGHT} y2={HEIGHT} />
          {series.map((s) =>
            s.values.map((value, i) =>
              value ? (
                <rect
                  key={`${s.name}:${days[i]}`}
                  className={`mini-chart__bar ${toneClass(s)}`}
                  x={i * STEP + STEP * 0.15}
                  width={STEP * 0.7}
                  y={y(value)}
                  height={HEIGHT - y(value)}
                />
              ) : null,
            ),
          )}
          {/* A column per day to hover: the browser shows its title. */}
          {days.map((day, i) => (
            <rect
              key={day}
              className="mini-chart__hit"
              x={i * STEP}
              width={STEP}
              y={0}
              height={HEIGHT}
            >
              <title>
                {`${shortDay(day)}: ${series
                  .map((s) => {
                    const value = s.values[i] ?? null;
                    const text = value === null ? '—' : format(value);
                    return series.length > 1 ? `${s.name} ${text}` : text;
                  })
                  .join(', ')}`}
              </title>
            </rect>
          ))}
        </svg>
      </div>
      <div className="mini-chart__axis" aria-hidden="true">
        <span>{days[0] ? shortDay(days[0]) : ''}</span>
        {series.length > 1 && (
          <span className="mini-chart__legend">
            {series.map((s) => (
              <span key={s.name} className={`mini-chart__key ${toneClass(s)}`}>
                {s.name}
              </span>
            ))}
          </span>
        )}
        <span>{days.length ? shortDay(days[days.length - 1]!) : ''}</span>
      </div>
    </div>
  );
}
