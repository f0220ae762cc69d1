// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Click to upload or drag an image here */
export const generator_image_drop = (locale: Locale): string =>
  locale === 'zh-CN' ? '点击上传，或把图片拖到这里' : 'Click to upload or drag an image here';
