// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Published */
export const blog_published = (locale: Locale): string =>
  locale === 'zh-CN' ? '发布于' : 'Published';
