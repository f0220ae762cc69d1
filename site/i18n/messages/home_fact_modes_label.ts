// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** text or image */
export const home_fact_modes_label = (locale: Locale): string =>
  locale === 'zh-CN' ? '文字或图片' : 'text or image';
