/** A small coloured label for a state: task status, payment status, build state, yes/no. */
import type { ReactNode } from 'react';

export type BadgeTone = 'good' | 'warn' | 'bad' | 'info' | 'neutral';

export default function Badge({ tone, children }: { tone: BadgeTone; children: ReactNode }) {
  return <span className={`badge admin-badge admin-badge--${tone}`}>{children}</span>;
}

const TASK_TONES: Record<string, BadgeTone> = {
  pending: 'info',
  processing: 'warn',
  completed: 'good',
  failed: 'bad',
};

/** Payment and subscription states from the provider: paid/active are good, the rest by kind. */
const STATE_TONES: Record<string, BadgeTone> = {
  paid: 'good',
  active: 'good',
  succeeded: 'good',
  complete: 'good',
  pending: 'info',
  open: 'info',
  trialing: 'info',
  failed: 'bad',
  past_due: 'bad',
  unpaid: 'bad',
  expired: 'neutral',
  canceled: 'neutral',
  cancelled: 'neutral',
  refunded: 'neutral',
};

export function taskTone(status: string): BadgeTone {
  return TASK_TONES[status] ?? 'neutral';
}

export function stateTone(status: string): BadgeTone {
  return STATE_TONES[status.toLowerCase()] ?? 'neutral';
}

/** "past_due" → "Past due". */
export function humanize(value: string): string {
  const words = value.replace(/[_.-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : value;
}
