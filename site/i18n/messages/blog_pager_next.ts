// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Next */
export const blog_pager_next = (locale: Locale): string => (locale === 'zh-CN' ? '下一页' : 'Next');
