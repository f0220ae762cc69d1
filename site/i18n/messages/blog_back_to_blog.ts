// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Back to Blog */
export const blog_back_to_blog = (locale: Locale): string =>
  locale === 'zh-CN' ? '返回博客' : 'Back to Blog';
