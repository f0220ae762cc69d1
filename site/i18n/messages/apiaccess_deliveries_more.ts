// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Show older deliveries */
export const apiaccess_deliveries_more = (locale: Locale): string =>
  locale === 'zh-CN' ? '查看更早的投递' : 'Show older deliveries';
