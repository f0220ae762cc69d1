// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {price}/month */
export const pricing_price_per_month = (locale: Locale, p: { price: string | number }): string =>
  locale === 'zh-CN' ? String(p.price) + '/月' : String(p.price) + '/month';
