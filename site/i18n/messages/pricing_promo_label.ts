// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Promotion code */
export const pricing_promo_label = (locale: Locale): string =>
  locale === 'zh-CN' ? '优惠码' : 'Promotion code';
