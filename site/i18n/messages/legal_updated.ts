// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Last updated */
export const legal_updated = (locale: Locale): string =>
  locale === 'zh-CN' ? '最后更新于' : 'Last updated';
