// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {count} views */
export const blog_views_other = (locale: Locale, p: { count: string | number }): string =>
  locale === 'zh-CN' ? String(p.count) + ' 次浏览' : String(p.count) + ' views';
