// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Add image */
export const generator_add_image = (locale: Locale): string =>
  locale === 'zh-CN' ? '添加图片' : 'Add image';
