// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Your invoices and receipts, your card, and changing or cancelling your plan. */
export const billing_account_text = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '你的发票和收据、银行卡，以及更改或取消套餐。'
    : 'Your invoices and receipts, your card, and changing or cancelling your plan.';
