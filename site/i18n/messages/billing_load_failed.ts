// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Could not load your payments. Check your connection and try again. */
export const billing_load_failed = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '无法加载你的付款。请检查网络连接后重试。'
    : 'Could not load your payments. Check your connection and try again.';
