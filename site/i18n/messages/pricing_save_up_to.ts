// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** save up to {percent}% */
export const pricing_save_up_to = (locale: Locale, p: { percent: string | number }): string =>
  locale === 'zh-CN'
    ? '最多省 ' + String(p.percent) + '%'
    : 'save up to ' + String(p.percent) + '%';
