// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Receipt */
export const billing_col_receipt = (locale: Locale): string =>
  locale === 'zh-CN' ? '收据' : 'Receipt';
