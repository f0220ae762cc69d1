// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Advanced */
export const generator_advanced = (locale: Locale): string =>
  locale === 'zh-CN' ? '高级设置' : 'Advanced';
