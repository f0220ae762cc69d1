// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Checkout was not completed. You have not been charged. */
export const pricing_checkout_not_completed = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '结账未完成，你未被扣款。'
    : 'Checkout was not completed. You have not been charged.';
