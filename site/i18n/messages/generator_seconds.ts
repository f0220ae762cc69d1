// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {seconds} s */
export const generator_seconds = (locale: Locale, p: { seconds: string | number }): string =>
  locale === 'zh-CN' ? String(p.seconds) + ' 秒' : String(p.seconds) + ' s';
