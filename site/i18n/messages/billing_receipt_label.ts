// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Open receipt {number} for the payment of {date} */
export const billing_receipt_label = (
  locale: Locale,
  p: { date: string | number; number: string | number },
): string =>
  locale === 'zh-CN'
    ? '打开 ' + String(p.date) + ' 那笔付款的收据 ' + String(p.number)
    : 'Open receipt ' + String(p.number) + ' for the payment of ' + String(p.date);
