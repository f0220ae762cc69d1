// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Previous */
export const blog_pager_previous = (locale: Locale): string =>
  locale === 'zh-CN' ? '上一页' : 'Previous';
