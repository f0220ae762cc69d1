/** One labelled field of the article form: the label above its control (and any hint after it). */
import type { ReactNode } from 'react';

interface BlogFieldProps {
  /** Id of the control the label names. */
  id: string;
  label: ReactNode;
  children: ReactNode;
}

export default function BlogField({ id, label, children }: BlogFieldProps) {
  return (
    <div className="blog-field">
      <label className="blog-field__label" htmlFor={id}>
        {label}
      </label>
      {children}
    </div>
  );
}
