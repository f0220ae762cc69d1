// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Progress */
export const generator_progress = (locale: Locale): string =>
  locale === 'zh-CN' ? '进度' : 'Progress';
