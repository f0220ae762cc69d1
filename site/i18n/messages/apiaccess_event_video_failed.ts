// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** a video failed */
export const apiaccess_event_video_failed = (locale: Locale): string =>
  locale === 'zh-CN' ? '视频生成失败' : 'a video failed';
