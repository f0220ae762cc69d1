// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Resolution */
export const generator_resolution = (locale: Locale): string =>
  locale === 'zh-CN' ? '分辨率' : 'Resolution';
