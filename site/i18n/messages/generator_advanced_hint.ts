// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Shape, resolution, speed, seed, images */
export const generator_advanced_hint = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '画面比例、分辨率、速度、种子、图片'
    : 'Shape, resolution, speed, seed, images';
