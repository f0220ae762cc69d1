// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Xmas */
export const effects_category_xmas = (locale: Locale): string =>
  locale === 'zh-CN' ? '圣诞' : 'Xmas';
