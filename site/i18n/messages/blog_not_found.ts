// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Article not found */
export const blog_not_found = (locale: Locale): string =>
  locale === 'zh-CN' ? '文章不存在' : 'Article not found';
