// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Horror/Fantasy */
export const effects_category_horror_fantasy = (locale: Locale): string =>
  locale === 'zh-CN' ? '恐怖/奇幻' : 'Horror/Fantasy';
