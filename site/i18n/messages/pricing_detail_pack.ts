// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** One-time purchase · {credits}, never expire */
export const pricing_detail_pack = (locale: Locale, p: { credits: string | number }): string =>
  locale === 'zh-CN'
    ? '一次性购买 · ' + String(p.credits) + '，永不过期'
    : 'One-time purchase · ' + String(p.credits) + ', never expire';
