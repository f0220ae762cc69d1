// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Could not close your account. Check your connection and try again. */
export const account_settings_close_failed = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '无法注销你的账户。请检查网络连接后重试。'
    : 'Could not close your account. Check your connection and try again.';
