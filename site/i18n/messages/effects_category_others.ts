// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Others */
export const effects_category_others = (locale: Locale): string =>
  locale === 'zh-CN' ? '其他' : 'Others';
