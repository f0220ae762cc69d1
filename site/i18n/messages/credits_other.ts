// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {count} credits */
export const credits_other = (locale: Locale, p: { count: string | number }): string =>
  locale === 'zh-CN' ? String(p.count) + ' 积分' : String(p.count) + ' credits';
