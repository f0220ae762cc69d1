// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Payments and receipts */
export const billing_title = (locale: Locale): string =>
  locale === 'zh-CN' ? '付款与收据' : 'Payments and receipts';
