// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {brand} pricing: monthly plans from {price}/month with fresh credits every month, or one-time credit packs that never expire. Each AI video costs {cost} credits. */
export const pricing_page_description = (
  locale: Locale,
  p: { brand: string | number; cost: string | number; price: string | number },
): string =>
  locale === 'zh-CN'
    ? String(p.brand) +
      ' 价格：月度套餐 ' +
      String(p.price) +
      '/月起，每月发放新积分；也可购买永不过期的一次性积分包。每个 AI 视频消耗 ' +
      String(p.cost) +
      ' 积分。'
    : String(p.brand) +
      ' pricing: monthly plans from ' +
      String(p.price) +
      '/month with fresh credits every month, or one-time credit packs that never expire. Each AI video costs ' +
      String(p.cost) +
      ' credits.';
