// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** 16:9 landscape */
export const generator_aspect_landscape = (locale: Locale): string =>
  locale === 'zh-CN' ? '16:9 横屏' : '16:9 landscape';
