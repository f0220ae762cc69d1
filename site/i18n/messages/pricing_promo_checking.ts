// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Checking the code… */
export const pricing_promo_checking = (locale: Locale): string =>
  locale === 'zh-CN' ? '正在核对优惠码…' : 'Checking the code…';
