// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Read this article in 简体中文: */
export const blog_translation_lead = (locale: Locale): string =>
  locale === 'zh-CN' ? '阅读英文版：' : 'Read this article in 简体中文:';
