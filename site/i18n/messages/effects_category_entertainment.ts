// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Entertainment */
export const effects_category_entertainment = (locale: Locale): string =>
  locale === 'zh-CN' ? '娱乐' : 'Entertainment';
