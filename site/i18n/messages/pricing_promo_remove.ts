// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Remove code */
export const pricing_promo_remove = (locale: Locale): string =>
  locale === 'zh-CN' ? '移除优惠码' : 'Remove code';
