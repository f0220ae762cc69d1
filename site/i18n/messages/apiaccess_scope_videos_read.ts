// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** read your videos and their status */
export const apiaccess_scope_videos_read = (locale: Locale): string =>
  locale === 'zh-CN' ? '读取你的视频及其状态' : 'read your videos and their status';
