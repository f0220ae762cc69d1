// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Watch samples */
export const effects_landing_watch = (locale: Locale): string =>
  locale === 'zh-CN' ? '观看示例' : 'Watch samples';
