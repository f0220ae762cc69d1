// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Billing */
export const billing_account_heading = (locale: Locale): string =>
  locale === 'zh-CN' ? '账单' : 'Billing';
