// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Every payment you made for a plan or a credit pack, newest first, with its receipt. */
export const billing_lead = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '你为套餐或积分包支付的每一笔款项，最新的在前，附带收据。'
    : 'Every payment you made for a plan or a credit pack, newest first, with its receipt.';
