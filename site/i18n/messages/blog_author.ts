// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Author */
export const blog_author = (locale: Locale): string => (locale === 'zh-CN' ? '作者' : 'Author');
