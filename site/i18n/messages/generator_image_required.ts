// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Image to Video mode requires an image. Please upload an image. */
export const generator_image_required = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '图生视频模式需要一张图片，请上传图片。'
    : 'Image to Video mode requires an image. Please upload an image.';
