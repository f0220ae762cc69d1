// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Generating your video */
export const generator_generating_title = (locale: Locale): string =>
  locale === 'zh-CN' ? '正在生成视频' : 'Generating your video';
