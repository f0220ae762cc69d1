/**
 * Previous / Next through an admin list, with where the admin is ("21–40 of 134"). Next follows
 * the server's cursor, so a page deep in a long list loads as fast as the first; the total comes
 * from the first page and is a floor ("1,000+") when the server stopped counting.
 */
import * as icons from '../../lib/icons/index.ts';
import Icon from '../shared/Icon.tsx';

/** A list's total as the first page reported it (see usePagedList). */
export interface ListTotal {
  count: number;
  exact: boolean;
}

interface PagerProps {
  /** What the pages are of, for the landmark's name: "Users pages". */
  label: string;
  offset: number;
  limit: number;
  total: ListTotal | null;
  hasPrevious: boolean;
  hasNext: boolean;
  /** True while the next page loads: both buttons wait. */
  busy?: boolean;
  onPrevious: () => void;
  onNext: () => void;
}

/** "134", or "1,000+" for a count the server stopped at (it counts no further than 1,000 + a page). */
function totalText(total: ListTotal): string {
  if (total.exact) return total.count.toLocaleString();
  const floor = total.count >= 1000 ? Math.floor(total.count / 1000) * 1000 : total.count;
  return `${floor.toLocaleString()}+`;
}

/** "21–40 of 134" for offset 20 and 20 rows; without a known total, "21–40". */
export function rangeText(offset: number, count: number, total: ListTotal | null): string {
  if (count === 0) return total ? `0 of ${totalText(total)}` : '0';
  const range = `${(offset + 1).toLocaleString()}–${(offset + count).toLocaleString()}`;
  return total ? `${range} of ${totalText(total)}` : range;
}

export default function Pager({
  label,
  offset,
  limit,
  total,
  hasPrevious,
  hasNext,
  busy = false,
  onPrevious,
  onNext,
}: PagerProps) {
  if (!hasPrevious && !hasNext) return null;
  const page = Math.floor(offset / limit) + 1;
  const pages = total?.exact ? Math.max(1, Math.ceil(total.count / limit)) : null;
  return (
    <nav className="admin-pager" aria-label={`${label} pages`}>
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        onClick={onPrevious}
        disabled={!hasPrevious || busy}
      >
        <Icon icon={icons.chevronLeft} />
        Previous
      </button>
      <p className="admin-pager__where" aria-live="polite">
        Page {page.toLocaleString()}
        {pages !== null && ` of ${pages.toLocaleString()}`}
      </p>
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        onClick={onNext}
        disabled={!hasNext || busy}
      >
        Next
        <Icon icon={icons.chevronRight} />
      </button>
    </nav>
  );
}
