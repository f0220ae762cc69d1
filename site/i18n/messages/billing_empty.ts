// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** No payments yet. Plans and credit packs are on the pricing page. */
export const billing_empty = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '还没有付款。套餐和积分包在价格页。'
    : 'No payments yet. Plans and credit packs are on the pricing page.';
