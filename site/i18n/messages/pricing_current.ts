// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Current */
export const pricing_current = (locale: Locale): string =>
  locale === 'zh-CN' ? '当前' : 'Current';
