// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** No articles yet */
export const blog_empty = (locale: Locale): string =>
  locale === 'zh-CN' ? '暂无文章' : 'No articles yet';
