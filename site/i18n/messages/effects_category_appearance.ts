// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Appearance */
export const effects_category_appearance = (locale: Locale): string =>
  locale === 'zh-CN' ? '外貌' : 'Appearance';
