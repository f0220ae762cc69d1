// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Monthly */
export const pricing_monthly = (locale: Locale): string =>
  locale === 'zh-CN' ? '按月' : 'Monthly';
