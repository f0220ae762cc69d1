// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Other language */
export const blog_translation_label = (locale: Locale): string =>
  locale === 'zh-CN' ? '其他语言' : 'Other language';
