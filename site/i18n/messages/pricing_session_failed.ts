// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Failed to create payment session. Please try again. */
export const pricing_session_failed = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '创建支付会话失败，请重试。'
    : 'Failed to create payment session. Please try again.';
