// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Image */
export const generator_image_label = (locale: Locale): string =>
  locale === 'zh-CN' ? '图片' : 'Image';
