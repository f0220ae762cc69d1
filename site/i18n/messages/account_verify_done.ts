// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Your email address is confirmed. Taking you home… */
export const account_verify_done = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '邮箱地址已确认，正在前往首页…'
    : 'Your email address is confirmed. Taking you home…';
