// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** create, extend and delete videos */
export const apiaccess_scope_videos_write = (locale: Locale): string =>
  locale === 'zh-CN' ? '创建、延长和删除视频' : 'create, extend and delete videos';
