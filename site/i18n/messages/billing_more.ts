// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Show older payments */
export const billing_more = (locale: Locale): string =>
  locale === 'zh-CN' ? '显示更早的付款' : 'Show older payments';
