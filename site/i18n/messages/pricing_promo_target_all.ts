// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** any plan or credit pack */
export const pricing_promo_target_all = (locale: Locale): string =>
  locale === 'zh-CN' ? '任意套餐或积分包' : 'any plan or credit pack';
