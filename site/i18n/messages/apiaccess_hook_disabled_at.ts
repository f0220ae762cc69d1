// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Disabled on {date}, after failing for {days} days. Add the endpoint again to turn it back on. */
export const apiaccess_hook_disabled_at = (
  locale: Locale,
  p: { date: string | number; days: string | number },
): string =>
  locale === 'zh-CN'
    ? '连续失败 ' +
      String(p.days) +
      ' 天后，已于 ' +
      String(p.date) +
      ' 停用。重新添加此端点即可恢复。'
    : 'Disabled on ' +
      String(p.date) +
      ', after failing for ' +
      String(p.days) +
      ' days. Add the endpoint again to turn it back on.';
