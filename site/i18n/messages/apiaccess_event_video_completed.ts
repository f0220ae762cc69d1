// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** a video is ready */
export const apiaccess_event_video_completed = (locale: Locale): string =>
  locale === 'zh-CN' ? '视频已完成' : 'a video is ready';
