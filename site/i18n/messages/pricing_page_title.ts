// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Pricing: plans and credit packs | {brand} */
export const pricing_page_title = (locale: Locale, p: { brand: string | number }): string =>
  locale === 'zh-CN'
    ? '价格：订阅套餐与积分包 | ' + String(p.brand)
    : 'Pricing: plans and credit packs | ' + String(p.brand);
