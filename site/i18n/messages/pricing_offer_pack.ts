// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {pack} pack: {credits} */
export const pricing_offer_pack = (
  locale: Locale,
  p: { credits: string | number; pack: string | number },
): string =>
  locale === 'zh-CN'
    ? String(p.pack) + ' 积分包：' + String(p.credits)
    : String(p.pack) + ' pack: ' + String(p.credits);
