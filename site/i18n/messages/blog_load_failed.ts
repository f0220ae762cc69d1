// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** 加载文章失败 */
export const blog_load_failed = (locale: Locale): string =>
  locale === 'zh-CN' ? '加载文章失败' : '加载文章失败';
