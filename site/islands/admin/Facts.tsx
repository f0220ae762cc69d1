/** Label/value facts about one thing (a user, the site build), as a <dl> that wraps into columns. */
import type { ReactNode } from 'react';
import { formatDateAndTime } from './format.ts';

/** One fact: its label (unique within the list) and its value. */
export type Fact = readonly [label: string, value: ReactNode];

export default function Facts({
  facts,
  compact = false,
}: {
  facts: readonly Fact[];
  compact?: boolean;
}) {
  return (
    <dl className={compact ? 'admin-facts admin-facts--compact' : 'admin-facts'}>
      {facts.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A date in a facts list: the day, with the time beneath it, so narrow columns never break it. */
export function FactDate({ iso }: { iso: string | null | undefined }) {
  const { date, time } = formatDateAndTime(iso);
  if (!iso) return <>{date}</>;
  return (
    <time dateTime={iso}>
      {date}
      {time && <span className="admin-facts__time">{time}</span>}
    </time>
  );
}
