// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {description} Page {page} of {pages}. */
export const blog_description_paged = (
  locale: Locale,
  p: { description: string | number; page: string | number; pages: string | number },
): string =>
  locale === 'zh-CN'
    ? String(p.description) + '第 ' + String(p.page) + ' 页，共 ' + String(p.pages) + ' 页。'
    : String(p.description) + ' Page ' + String(p.page) + ' of ' + String(p.pages) + '.';
