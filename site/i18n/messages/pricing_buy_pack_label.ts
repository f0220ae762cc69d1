// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Buy {pack} pack */
export const pricing_buy_pack_label = (locale: Locale, p: { pack: string | number }): string =>
  locale === 'zh-CN' ? '购买 ' + String(p.pack) + ' 积分包' : 'Buy ' + String(p.pack) + ' pack';
