// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Checkout */
export const pricing_checkout_title = (locale: Locale): string =>
  locale === 'zh-CN' ? '结账' : 'Checkout';
