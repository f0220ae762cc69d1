// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Deliveries have failed since {date}. Each event is retried for {hours} hours. */
export const apiaccess_hook_failing_since = (
  locale: Locale,
  p: { date: string | number; hours: string | number },
): string =>
  locale === 'zh-CN'
    ? '自 ' + String(p.date) + ' 起投递失败。每个事件会重试 ' + String(p.hours) + ' 小时。'
    : 'Deliveries have failed since ' +
      String(p.date) +
      '. Each event is retried for ' +
      String(p.hours) +
      ' hours.';
