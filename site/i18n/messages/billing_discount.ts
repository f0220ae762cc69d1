// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {amount} off with a promotion code */
export const billing_discount = (locale: Locale, p: { amount: string | number }): string =>
  locale === 'zh-CN'
    ? '优惠码减免 ' + String(p.amount)
    : String(p.amount) + ' off with a promotion code';
