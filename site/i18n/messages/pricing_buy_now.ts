// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Buy Now */
export const pricing_buy_now = (locale: Locale): string =>
  locale === 'zh-CN' ? '立即购买' : 'Buy Now';
