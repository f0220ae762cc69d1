// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Estimated time */
export const generator_estimated_time_label = (locale: Locale): string =>
  locale === 'zh-CN' ? '预计用时' : 'Estimated time';
