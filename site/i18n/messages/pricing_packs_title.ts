// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Credit packs */
export const pricing_packs_title = (locale: Locale): string =>
  locale === 'zh-CN' ? '积分包' : 'Credit packs';
