// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Hero/Villain */
export const effects_category_hero_villain = (locale: Locale): string =>
  locale === 'zh-CN' ? '英雄/反派' : 'Hero/Villain';
