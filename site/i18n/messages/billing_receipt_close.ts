// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Close */
export const billing_receipt_close = (locale: Locale): string =>
  locale === 'zh-CN' ? '关闭' : 'Close';
