// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Network error, please check connection and try again */
export const generator_network = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '网络错误，请检查网络连接后重试'
    : 'Network error, please check connection and try again';
