// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** There are no videos in this category */
export const gallery_empty = (locale: Locale): string =>
  locale === 'zh-CN' ? '该类别下暂无视频' : 'There are no videos in this category';
