// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Loading video… */
export const gallery_loading = (locale: Locale): string =>
  locale === 'zh-CN' ? '视频加载中…' : 'Loading video…';
