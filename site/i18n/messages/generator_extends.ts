// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Extends: */
export const generator_extends = (locale: Locale): string =>
  locale === 'zh-CN' ? '延长自：' : 'Extends:';
