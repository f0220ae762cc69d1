// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Keep a character, product or style the same: the video follows these images. */
export const generator_reference_images_hint = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '让人物、产品或风格保持一致：视频会参照这些图片。'
    : 'Keep a character, product or style the same: the video follows these images.';
