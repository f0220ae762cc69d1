// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Your payments */
export const billing_list_label = (locale: Locale): string =>
  locale === 'zh-CN' ? '你的付款' : 'Your payments';
