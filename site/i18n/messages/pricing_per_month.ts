// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** /month */
export const pricing_per_month = (locale: Locale): string =>
  locale === 'zh-CN' ? '/月' : '/month';
