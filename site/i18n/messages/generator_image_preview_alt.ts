// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Preview of the chosen image */
export const generator_image_preview_alt = (locale: Locale): string =>
  locale === 'zh-CN' ? '所选图片的预览' : 'Preview of the chosen image';
