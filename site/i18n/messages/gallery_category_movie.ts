// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Movie */
export const gallery_category_movie = (locale: Locale): string =>
  locale === 'zh-CN' ? '电影' : 'Movie';
