// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {brand} video credits */
export const pricing_product_name = (locale: Locale, p: { brand: string | number }): string =>
  locale === 'zh-CN' ? String(p.brand) + ' 视频积分' : String(p.brand) + ' video credits';
