// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Starting */
export const generator_progress_starting = (locale: Locale): string =>
  locale === 'zh-CN' ? '正在开始' : 'Starting';
