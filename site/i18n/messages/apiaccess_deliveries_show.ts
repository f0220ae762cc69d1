// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Show deliveries */
export const apiaccess_deliveries_show = (locale: Locale): string =>
  locale === 'zh-CN' ? '查看投递记录' : 'Show deliveries';
