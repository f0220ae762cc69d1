// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Continue without the code */
export const pricing_promo_continue_without = (locale: Locale): string =>
  locale === 'zh-CN' ? '不使用优惠码继续' : 'Continue without the code';
