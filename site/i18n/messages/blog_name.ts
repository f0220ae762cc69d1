// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {brand} Blog */
export const blog_name = (locale: Locale, p: { brand: string | number }): string =>
  locale === 'zh-CN' ? String(p.brand) + ' 博客' : String(p.brand) + ' Blog';
