// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Blog | {brand} */
export const blog_page_title = (locale: Locale, p: { brand: string | number }): string =>
  locale === 'zh-CN' ? '博客 | ' + String(p.brand) : 'Blog | ' + String(p.brand);
