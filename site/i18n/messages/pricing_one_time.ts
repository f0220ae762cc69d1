// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** one-time */
export const pricing_one_time = (locale: Locale): string =>
  locale === 'zh-CN' ? '一次性' : 'one-time';
