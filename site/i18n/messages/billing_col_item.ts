// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** What */
export const billing_col_item = (locale: Locale): string => (locale === 'zh-CN' ? '内容' : 'What');
