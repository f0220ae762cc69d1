// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Something went wrong. Please try again. */
export const generator_error_fallback = (locale: Locale): string =>
  locale === 'zh-CN' ? '出了点问题，请重试。' : 'Something went wrong. Please try again.';
