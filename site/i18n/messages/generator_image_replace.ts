// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Replace */
export const generator_image_replace = (locale: Locale): string =>
  locale === 'zh-CN' ? '更换' : 'Replace';
