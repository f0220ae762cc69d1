// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** 取消订阅失败，请稍后重试 */
export const pricing_cancel_failed = (locale: Locale): string =>
  locale === 'zh-CN' ? '取消订阅失败，请稍后重试' : '取消订阅失败，请稍后重试';
