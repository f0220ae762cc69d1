/** What a list shows instead of rows: loading, nothing there, or why it could not load. */
import type { ReactNode } from 'react';
import type { AdminData } from './use-admin-data.ts';

export function Loading({ what }: { what: string }) {
  return (
    <div className="admin-state" role="status">
      <span className="spinner spinner-sm" aria-hidden="true" />
      Loading {what}…
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="admin-state admin-state--empty">
      <p className="admin-state__title">{title}</p>
      {children && <p className="admin-state__text">{children}</p>}
    </div>
  );
}

export function LoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="admin-state admin-state--error">
      <p className="admin-state__text" role="alert">
        {message}
      </p>
      <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}

/** Why it could not load, else that it is loading, else what loaded (`children`). */
export function Loaded<T>({
  state,
  what,
  children,
}: {
  state: AdminData<T>;
  /** "the audit log", for "Loading the audit log…". */
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (state.error) return <LoadError message={state.error} onRetry={state.reload} />;
  if (state.data === null) return <Loading what={what} />;
  return children(state.data);
}
