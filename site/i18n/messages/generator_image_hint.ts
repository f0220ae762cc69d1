// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** JPG, PNG, GIF · up to {max} MB. Your video is animated from this image. */
export const generator_image_hint = (locale: Locale, p: { max: string | number }): string =>
  locale === 'zh-CN'
    ? 'JPG、PNG、GIF · 最大 ' + String(p.max) + ' MB。视频将以这张图片为画面生成。'
    : 'JPG, PNG, GIF · up to ' + String(p.max) + ' MB. Your video is animated from this image.';
