// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Sign-in is unavailable right now. Check your connection and try again. */
export const login_unavailable = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '暂时无法登录。请检查网络连接后重试。'
    : 'Sign-in is unavailable right now. Check your connection and try again.';
