// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Ends on */
export const pricing_ends_on = (locale: Locale): string =>
  locale === 'zh-CN' ? '结束日期' : 'Ends on';
