// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Back to Home */
export const blog_back_home = (locale: Locale): string =>
  locale === 'zh-CN' ? '返回首页' : 'Back to Home';
