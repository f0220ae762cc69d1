// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Could not open this receipt. Check your connection and try again. */
export const billing_receipt_failed = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '无法打开这张收据。请检查网络连接后重试。'
    : 'Could not open this receipt. Check your connection and try again.';
