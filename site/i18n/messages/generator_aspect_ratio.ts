// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Aspect ratio */
export const generator_aspect_ratio = (locale: Locale): string =>
  locale === 'zh-CN' ? '画面比例' : 'Aspect ratio';
