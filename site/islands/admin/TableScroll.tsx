/**
 * A table's frame: when the columns do not fit (a narrow window, a tablet) the table scrolls
 * sideways inside this box, never the page, and the box is focusable so the keyboard can scroll
 * it too. On phones admin.css turns the rows into cards instead.
 */
import type { ReactNode } from 'react';

interface TableScrollProps {
  /** Id of the table's <caption>, which names the scroll region. */
  captionId: string;
  busy?: boolean;
  children: ReactNode;
}

export default function TableScroll({ captionId, busy = false, children }: TableScrollProps) {
  return (
    <div
      className={busy ? 'admin-table-scroll is-busy' : 'admin-table-scroll'}
      role="region"
      aria-labelledby={captionId}
      aria-busy={busy || undefined}
      tabIndex={0}
    >
      {children}
    </div>
  );
}
