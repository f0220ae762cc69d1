// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Receipt {number} */
export const billing_receipt_button = (locale: Locale, p: { number: string | number }): string =>
  locale === 'zh-CN' ? '收据 ' + String(p.number) : 'Receipt ' + String(p.number);
