// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** That did not work. Check your connection and try again. */
export const apiaccess_failed = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '操作未成功。请检查网络连接后重试。'
    : 'That did not work. Check your connection and try again.';
