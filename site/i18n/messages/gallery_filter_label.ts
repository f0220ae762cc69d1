// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Filter videos by category */
export const gallery_filter_label = (locale: Locale): string =>
  locale === 'zh-CN' ? '按类别筛选视频' : 'Filter videos by category';
