/** A date in a facts list: the day, with the time beneath it, so narrow columns never break it. */
import { formatDateAndTime } from './format.ts';

export default function FactDate({ iso }: { iso: string | null | undefined }) {
  const { date, time } = formatDateAndTime(iso);
  if (!iso) return <>{date}</>;
  return (
    <time dateTime={iso}>
      {date}
      {time && <span className="admin-facts__time">{time}</span>}
    </time>
  );
}
