// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** 16:9 720p */
export const generator_format = (locale: Locale): string =>
  locale === 'zh-CN' ? '16:9 720p' : '16:9 720p';
