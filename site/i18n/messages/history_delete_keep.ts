// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Keep video */
export const history_delete_keep = (locale: Locale): string =>
  locale === 'zh-CN' ? '保留视频' : 'Keep video';
