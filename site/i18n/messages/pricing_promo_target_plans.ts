// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** plans (the first payment) */
export const pricing_promo_target_plans = (locale: Locale): string =>
  locale === 'zh-CN' ? '订阅套餐（首次付款）' : 'plans (the first payment)';
