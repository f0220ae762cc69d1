// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Your credits: buy more on the pricing page */
export const header_credits_title = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '你的积分：可在价格页购买更多'
    : 'Your credits: buy more on the pricing page';
