// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Not enough credits ({have}/{cost}) */
export const generator_not_enough_credits = (
  locale: Locale,
  p: { cost: string | number; have: string | number },
): string =>
  locale === 'zh-CN'
    ? '积分不足（' + String(p.have) + '/' + String(p.cost) + '）'
    : 'Not enough credits (' + String(p.have) + '/' + String(p.cost) + ')';
