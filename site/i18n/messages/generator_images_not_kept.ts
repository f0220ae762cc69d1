// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** The original video was made with images, which a link cannot carry: add them again. */
export const generator_images_not_kept = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '原视频使用了图片，链接无法带上图片，请重新添加。'
    : 'The original video was made with images, which a link cannot carry: add them again.';
