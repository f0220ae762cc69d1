// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Delete this video? */
export const history_delete_title = (locale: Locale): string =>
  locale === 'zh-CN' ? '删除这个视频？' : 'Delete this video?';
