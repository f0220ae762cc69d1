// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** with sound */
export const home_title_accent = (locale: Locale): string =>
  locale === 'zh-CN' ? '自带声音' : 'with sound';
