// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** A promotion code is 3 to 32 letters, digits or dashes. */
export const pricing_promo_format = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '优惠码由 3 到 32 个字母、数字或连字符组成。'
    : 'A promotion code is 3 to 32 letters, digits or dashes.';
