// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** The video ends on this image. */
export const generator_last_frame_hint = (locale: Locale): string =>
  locale === 'zh-CN' ? '视频将以这张图片结束。' : 'The video ends on this image.';
