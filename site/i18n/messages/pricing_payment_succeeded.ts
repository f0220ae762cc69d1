// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Payment successful! Your credits have been added. */
export const pricing_payment_succeeded = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '支付成功！积分已到账。'
    : 'Payment successful! Your credits have been added.';
