// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Extend by {seconds} s */
export const generator_extend = (locale: Locale, p: { seconds: string | number }): string =>
  locale === 'zh-CN'
    ? '延长 ' + String(p.seconds) + ' 秒'
    : 'Extend by ' + String(p.seconds) + ' s';
