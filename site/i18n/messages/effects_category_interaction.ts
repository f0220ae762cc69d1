// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Interaction */
export const effects_category_interaction = (locale: Locale): string =>
  locale === 'zh-CN' ? '互动' : 'Interaction';
