// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Have a promotion code? */
export const pricing_promo_toggle = (locale: Locale): string =>
  locale === 'zh-CN' ? '有优惠码？' : 'Have a promotion code?';
