// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Page {number} */
export const blog_pager_page = (locale: Locale, p: { number: string | number }): string =>
  locale === 'zh-CN' ? '第 ' + String(p.number) + ' 页' : 'Page ' + String(p.number);
