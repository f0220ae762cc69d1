// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Amount */
export const billing_col_amount = (locale: Locale): string =>
  locale === 'zh-CN' ? '金额' : 'Amount';
