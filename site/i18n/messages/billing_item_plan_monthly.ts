// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {plan} plan, monthly */
export const billing_item_plan_monthly = (locale: Locale, p: { plan: string | number }): string =>
  locale === 'zh-CN' ? String(p.plan) + ' 套餐（按月）' : String(p.plan) + ' plan, monthly';
