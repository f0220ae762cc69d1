// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Elapsed */
export const generator_elapsed = (locale: Locale): string =>
  locale === 'zh-CN' ? '已用时间' : 'Elapsed';
