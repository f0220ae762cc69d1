// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Renews on */
export const pricing_renews_on = (locale: Locale): string =>
  locale === 'zh-CN' ? '续订日期' : 'Renews on';
