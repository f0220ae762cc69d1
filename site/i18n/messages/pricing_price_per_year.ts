// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {price}/year */
export const pricing_price_per_year = (locale: Locale, p: { price: string | number }): string =>
  locale === 'zh-CN' ? String(p.price) + '/年' : String(p.price) + '/year';
