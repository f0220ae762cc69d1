// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** We could not change your password. Check your connection and try again. */
export const account_reset_failed = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '无法修改密码。请检查网络连接后重试。'
    : 'We could not change your password. Check your connection and try again.';
