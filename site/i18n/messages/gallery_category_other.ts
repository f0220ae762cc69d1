// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Other */
export const gallery_category_other = (locale: Locale): string =>
  locale === 'zh-CN' ? '其他' : 'Other';
