// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Your payment is still being confirmed. Your credits will appear shortly. */
export const pricing_payment_pending = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '你的付款仍在确认中，积分很快就会到账。'
    : 'Your payment is still being confirmed. Your credits will appear shortly.';
