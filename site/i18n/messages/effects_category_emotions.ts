// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Emotions */
export const effects_category_emotions = (locale: Locale): string =>
  locale === 'zh-CN' ? '情绪' : 'Emotions';
