// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Your payments to {brand}: what you bought, what you paid and your receipts. */
export const billing_page_description = (locale: Locale, p: { brand: string | number }): string =>
  locale === 'zh-CN'
    ? '你在 ' + String(p.brand) + ' 的付款：购买的内容、支付的金额和收据。'
    : 'Your payments to ' + String(p.brand) + ': what you bought, what you paid and your receipts.';
