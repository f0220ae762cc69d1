// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Checkout was cancelled. You have not been charged. */
export const pricing_checkout_cancelled = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '结账已取消，你未被扣款。'
    : 'Checkout was cancelled. You have not been charged.';
