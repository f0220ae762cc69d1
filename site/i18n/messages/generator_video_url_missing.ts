// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Video URL missing, please try again */
export const generator_video_url_missing = (locale: Locale): string =>
  locale === 'zh-CN' ? '缺少视频地址，请重试' : 'Video URL missing, please try again';
