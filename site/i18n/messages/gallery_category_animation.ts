// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Animation */
export const gallery_category_animation = (locale: Locale): string =>
  locale === 'zh-CN' ? '动画' : 'Animation';
