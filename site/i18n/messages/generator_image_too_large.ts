// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Image size is {size}. Please select an image smaller than {max}MB. */
export const generator_image_too_large = (
  locale: Locale,
  p: { max: string | number; size: string | number },
): string =>
  locale === 'zh-CN'
    ? '图片大小为 ' + String(p.size) + '，请选择小于 ' + String(p.max) + 'MB 的图片。'
    : 'Image size is ' +
      String(p.size) +
      '. Please select an image smaller than ' +
      String(p.max) +
      'MB.';
