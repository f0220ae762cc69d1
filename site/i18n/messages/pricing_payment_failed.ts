// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Payment failed. Please try again later. */
export const pricing_payment_failed = (locale: Locale): string =>
  locale === 'zh-CN' ? '支付失败，请稍后重试。' : 'Payment failed. Please try again later.';
