// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Tags */
export const blog_tags = (locale: Locale): string => (locale === 'zh-CN' ? '标签' : 'Tags');
