// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Was {price} */
export const pricing_promo_list_price = (locale: Locale, p: { price: string | number }): string =>
  locale === 'zh-CN' ? '原价 ' + String(p.price) : 'Was ' + String(p.price);
