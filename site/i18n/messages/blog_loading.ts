// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Loading the article… */
export const blog_loading = (locale: Locale): string =>
  locale === 'zh-CN' ? '正在加载文章…' : 'Loading the article…';
