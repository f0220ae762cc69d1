// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Letters, digits and dashes, for example SPRING-25. It is taken off when you buy. */
export const pricing_promo_hint = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '由字母、数字和连字符组成，例如 SPRING-25。购买时自动抵扣。'
    : 'Letters, digits and dashes, for example SPRING-25. It is taken off when you buy.';
