// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Could not load this. Check your connection and try again. */
export const apiaccess_load_failed = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '加载失败。请检查网络连接后重试。'
    : 'Could not load this. Check your connection and try again.';
