// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** No deliveries yet. */
export const apiaccess_deliveries_empty = (locale: Locale): string =>
  locale === 'zh-CN' ? '暂无投递记录。' : 'No deliveries yet.';
