/** A dashboard view: its heading, where focus lands when the admin opens it, and its tools. */
import type { ReactNode } from 'react';
import type { AdminData } from './use-admin-data.ts';

interface AdminViewProps {
  title: string;
  /** Beside the heading: a Refresh button, a filter, a search. */
  tools?: ReactNode;
  /** Set by views that show no table frame of their own to mark busy. */
  busy?: boolean;
  children: ReactNode;
}

export default function AdminView({ title, tools, busy, children }: AdminViewProps) {
  return (
    <section className="admin-view" aria-labelledby="admin-view-title" aria-busy={busy}>
      <div className="admin-view__head">
        <h2 id="admin-view-title" tabIndex={-1}>
          {title}
        </h2>
        {tools}
      </div>
      {children}
    </section>
  );
}

/** Loads the view's data again; waits while a load is on its way. */
export function RefreshButton({
  state,
}: {
  state: Pick<AdminData<unknown>, 'loading' | 'reload'>;
}) {
  return (
    <button
      type="button"
      className="btn btn-secondary btn-sm"
      onClick={state.reload}
      disabled={state.loading}
    >
      Refresh
    </button>
  );
}
