// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Date */
export const billing_col_date = (locale: Locale): string => (locale === 'zh-CN' ? '日期' : 'Date');
