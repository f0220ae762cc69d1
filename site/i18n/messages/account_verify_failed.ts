// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** We could not confirm your email address. Check your connection and press the button again. */
export const account_verify_failed = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '无法确认你的邮箱地址。请检查网络连接，然后再次点击按钮。'
    : 'We could not confirm your email address. Check your connection and press the button again.';
