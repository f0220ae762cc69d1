// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {total} · page {page} of {pages} */
export const history_total_with_page = (
  locale: Locale,
  p: { page: string | number; pages: string | number; total: string | number },
): string =>
  locale === 'zh-CN'
    ? String(p.total) + ' · 第 ' + String(p.page) + ' 页，共 ' + String(p.pages) + ' 页'
    : String(p.total) + ' · page ' + String(p.page) + ' of ' + String(p.pages);
