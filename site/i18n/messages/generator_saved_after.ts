// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** . */
export const generator_saved_after = (locale: Locale): string => (locale === 'zh-CN' ? '。' : '.');
