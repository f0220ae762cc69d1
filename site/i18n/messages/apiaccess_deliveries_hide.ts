// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Hide deliveries */
export const apiaccess_deliveries_hide = (locale: Locale): string =>
  locale === 'zh-CN' ? '隐藏投递记录' : 'Hide deliveries';
