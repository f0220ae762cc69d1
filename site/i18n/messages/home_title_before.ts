// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Create  */
export const home_title_before = (locale: Locale): string =>
  locale === 'zh-CN' ? '生成 ' : 'Create ';
