// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** None yet */
export const billing_no_receipt = (locale: Locale): string =>
  locale === 'zh-CN' ? '暂无' : 'None yet';
