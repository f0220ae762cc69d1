// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** The code could not be checked just now. Try again in a moment. */
export const pricing_promo_check_failed = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '暂时无法核对此优惠码，请稍后再试。'
    : 'The code could not be checked just now. Try again in a moment.';
