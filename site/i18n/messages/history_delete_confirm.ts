// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Delete video */
export const history_delete_confirm = (locale: Locale): string =>
  locale === 'zh-CN' ? '删除视频' : 'Delete video';
