// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Try Again */
export const generator_try_again = (locale: Locale): string =>
  locale === 'zh-CN' ? '重试' : 'Try Again';
