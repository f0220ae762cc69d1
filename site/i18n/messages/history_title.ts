// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Video History */
export const history_title = (locale: Locale): string =>
  locale === 'zh-CN' ? '视频历史记录' : 'Video History';
