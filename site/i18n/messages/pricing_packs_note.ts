// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** One-time purchases, no subscription needed. Credits from packs never expire. */
export const pricing_packs_note = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '一次性购买，无需订阅。积分包中的积分永不过期。'
    : 'One-time purchases, no subscription needed. Credits from packs never expire.';
