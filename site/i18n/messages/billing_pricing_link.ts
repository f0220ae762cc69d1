// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** See plans and packs */
export const billing_pricing_link = (locale: Locale): string =>
  locale === 'zh-CN' ? '查看套餐和积分包' : 'See plans and packs';
