// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Blog Admin */
export const nav_blog_admin = (locale: Locale): string =>
  locale === 'zh-CN' ? '博客管理' : 'Blog Admin';
