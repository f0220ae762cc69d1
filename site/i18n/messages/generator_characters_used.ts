// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Characters used:  */
export const generator_characters_used = (locale: Locale): string =>
  locale === 'zh-CN' ? '已用字数：' : 'Characters used: ';
