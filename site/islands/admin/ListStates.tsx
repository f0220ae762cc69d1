/** What a list shows instead of rows: loading, nothing there, or why it could not load. */
import type { ReactNode } from 'react';

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
