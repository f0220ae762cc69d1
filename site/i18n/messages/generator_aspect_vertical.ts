// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** 9:16 vertical */
export const generator_aspect_vertical = (locale: Locale): string =>
  locale === 'zh-CN' ? '9:16 竖屏' : '9:16 vertical';
