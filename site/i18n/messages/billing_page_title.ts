// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Payments and receipts | {brand} */
export const billing_page_title = (locale: Locale, p: { brand: string | number }): string =>
  locale === 'zh-CN'
    ? '付款与收据 | ' + String(p.brand)
    : 'Payments and receipts | ' + String(p.brand);
