// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Code {code} */
export const pricing_promo_discount_line = (
  locale: Locale,
  p: { code: string | number },
): string => (locale === 'zh-CN' ? '优惠码 ' + String(p.code) : 'Code ' + String(p.code));
