// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Attempts: {count} */
export const apiaccess_delivery_attempts = (
  locale: Locale,
  p: { count: string | number },
): string => (locale === 'zh-CN' ? '尝试次数：' + String(p.count) : 'Attempts: ' + String(p.count));
