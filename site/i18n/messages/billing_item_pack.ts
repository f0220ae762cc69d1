// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {pack} credit pack */
export const billing_item_pack = (locale: Locale, p: { pack: string | number }): string =>
  locale === 'zh-CN' ? String(p.pack) + ' 积分包' : String(p.pack) + ' credit pack';
