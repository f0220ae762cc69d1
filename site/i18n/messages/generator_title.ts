// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Create a video with sound from text or an image */
export const generator_title = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '用文字或图片生成有声视频'
    : 'Create a video with sound from text or an image';
