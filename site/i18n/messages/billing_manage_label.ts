// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Manage billing: invoices, receipts, card and plan */
export const billing_manage_label = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '管理账单：发票、收据、银行卡和套餐'
    : 'Manage billing: invoices, receipts, card and plan';
