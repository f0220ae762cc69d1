// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Please choose an image file (JPG, PNG, GIF). */
export const generator_image_not_image = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '请选择图片文件（JPG、PNG、GIF）。'
    : 'Please choose an image file (JPG, PNG, GIF).';
