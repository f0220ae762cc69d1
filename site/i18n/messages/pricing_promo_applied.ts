// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Code {code}: {discount} off {target}. It is taken off when you buy. */
export const pricing_promo_applied = (
  locale: Locale,
  p: { code: string | number; discount: string | number; target: string | number },
): string =>
  locale === 'zh-CN'
    ? '优惠码 ' +
      String(p.code) +
      '：' +
      String(p.target) +
      '优惠 ' +
      String(p.discount) +
      '，购买时自动抵扣。'
    : 'Code ' +
      String(p.code) +
      ': ' +
      String(p.discount) +
      ' off ' +
      String(p.target) +
      '. It is taken off when you buy.';
