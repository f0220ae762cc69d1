// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** History */
export const generator_history = (locale: Locale): string =>
  locale === 'zh-CN' ? '历史记录' : 'History';
