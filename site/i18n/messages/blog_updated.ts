// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Updated */
export const blog_updated = (locale: Locale): string => (locale === 'zh-CN' ? '更新于' : 'Updated');
