// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Blog pages */
export const blog_pager_label = (locale: Locale): string =>
  locale === 'zh-CN' ? '博客分页' : 'Blog pages';
