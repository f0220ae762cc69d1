// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Your generated video */
export const generator_video_label = (locale: Locale): string =>
  locale === 'zh-CN' ? '你生成的视频' : 'Your generated video';
