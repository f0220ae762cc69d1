// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Page {page} of {pages}. */
export const blog_lead_page = (
  locale: Locale,
  p: { page: string | number; pages: string | number },
): string =>
  locale === 'zh-CN'
    ? '第 ' + String(p.page) + ' 页，共 ' + String(p.pages) + ' 页。'
    : 'Page ' + String(p.page) + ' of ' + String(p.pages) + '.';
