// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Home */
export const blog_breadcrumb_home = (locale: Locale): string =>
  locale === 'zh-CN' ? '首页' : 'Home';
