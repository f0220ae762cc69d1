// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Blog – Page {page} | {brand} */
export const blog_page_title_paged = (
  locale: Locale,
  p: { brand: string | number; page: string | number },
): string =>
  locale === 'zh-CN'
    ? '博客 – 第 ' + String(p.page) + ' 页 | ' + String(p.brand)
    : 'Blog – Page ' + String(p.page) + ' | ' + String(p.brand);
