// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Length */
export const generator_length = (locale: Locale): string =>
  locale === 'zh-CN' ? '时长' : 'Length';
