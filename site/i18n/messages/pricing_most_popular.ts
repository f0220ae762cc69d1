// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Most Popular */
export const pricing_most_popular = (locale: Locale): string =>
  locale === 'zh-CN' ? '最受欢迎' : 'Most Popular';
