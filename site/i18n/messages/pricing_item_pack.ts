// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {name} pack */
export const pricing_item_pack = (locale: Locale, p: { name: string | number }): string =>
  locale === 'zh-CN' ? String(p.name) + ' 积分包' : String(p.name) + ' pack';
