// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Effects */
export const effects_list_heading = (locale: Locale): string =>
  locale === 'zh-CN' ? '特效' : 'Effects';
