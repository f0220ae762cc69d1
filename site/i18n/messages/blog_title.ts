// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Blog */
export const blog_title = (locale: Locale): string => (locale === 'zh-CN' ? '博客' : 'Blog');
