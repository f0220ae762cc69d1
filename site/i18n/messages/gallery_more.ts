// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** More Videos */
export const gallery_more = (locale: Locale): string =>
  locale === 'zh-CN' ? '更多视频' : 'More Videos';
