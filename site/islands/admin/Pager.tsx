/** Previous / Next through an admin list, with where the admin is ("21–40 of 134"). */
import * as icons from '../../lib/icons/index.ts';
import Icon from '../shared/Icon.tsx';

interface PagerProps {
  /** What the pages are of, for the landmark's name: "Users pages". */
  label: string;
  offset: number;
  limit: number;
  total: number;
  /** True while the next page loads: both buttons wait. */
  busy?: boolean;
  onChange: (offset: number) => void;
}

/** "21–40 of 134" for offset 20, limit 20. */
export function rangeText(offset: number, count: number, total: number): string {
  if (total === 0 || count === 0) return `0 of ${total.toLocaleString()}`;
  return `${(offset + 1).toLocaleString()}–${(offset + count).toLocaleString()} of ${total.toLocaleString()}`;
}

export default function Pager({ label, offset, limit, total, busy = false, onChange }: PagerProps) {
  if (total <= limit && offset === 0) return null;
  const page = Math.floor(offset / limit) + 1;
  const pages = Math.max(1, Math.ceil(total / limit));
  const hasPrevious = offset > 0;
  const hasNext = offset + limit < total;
  return (
    <nav className="admin-pager" aria-label={`${label} pages`}>
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        onClick={() => onChange(Math.max(0, offset - limit))}
        disabled={!hasPrevious || busy}
      >
        <Icon icon={icons.chevronLeft} />
        Previous
      </button>
      <p className="admin-pager__where" aria-live="polite">
        Page {page.toLocaleString()} of {pages.toLocaleString()}
      </p>
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        onClick={() => onChange(offset + limit)}
        disabled={!hasNext || busy}
      >
        Next
        <Icon icon={icons.chevronRight} />
      </button>
    </nav>
  );
}
