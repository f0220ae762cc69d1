// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Your subscription has been cancelled. Your remaining credits stay in your account. */
export const pricing_cancel_succeeded = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '你的订阅已取消。剩余积分仍保留在你的账户中。'
    : 'Your subscription has been cancelled. Your remaining credits stay in your account.';
