// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** clips in HD */
export const home_fact_length_label = (locale: Locale): string =>
  locale === 'zh-CN' ? '高清短片' : 'clips in HD';
