// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** An extension keeps the aspect ratio and resolution of the video it continues, and takes no images. */
export const generator_extend_shape_note = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '延长的视频沿用原视频的画面比例和分辨率，不能添加图片。'
    : 'An extension keeps the aspect ratio and resolution of the video it continues, and takes no images.';
