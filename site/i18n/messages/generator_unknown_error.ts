// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Unknown error */
export const generator_unknown_error = (locale: Locale): string =>
  locale === 'zh-CN' ? '未知错误' : 'Unknown error';
