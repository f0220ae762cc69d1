/** Calendar arithmetic as Stripe bills: monthly anchors clamp to the month's last day. */
import type { Interval, SubscriptionState } from './state.ts';

export function addInterval(anchor: number, interval: Interval, count: number): number {
  if (interval === 'day') return anchor + count * 86_400;
  if (interval === 'week') return anchor + count * 7 * 86_400;
  const months = interval === 'month' ? count : count * 12;
  const d = new Date(anchor * 1000);
  const total = d.getUTCMonth() + months;
  const year = d.getUTCFullYear() + Math.floor(total / 12);
  const month = ((total % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(d.getUTCDate(), lastDay);
  return Date.UTC(year, month, day, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()) / 1000;
}

export function periodOf(
  sub: SubscriptionState,
  index = sub.periodIndex,
): { start: number; end: number } {
  return {
    start: addInterval(sub.anchor, sub.interval, index * sub.intervalCount),
    end: addInterval(sub.anchor, sub.interval, (index + 1) * sub.intervalCount),
  };
}
