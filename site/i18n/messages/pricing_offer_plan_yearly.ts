// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {plan} plan, billed yearly: {credits} a month */
export const pricing_offer_plan_yearly = (
  locale: Locale,
  p: { credits: string | number; plan: string | number },
): string =>
  locale === 'zh-CN'
    ? String(p.plan) + ' 套餐，按年付费：每月 ' + String(p.credits)
    : String(p.plan) + ' plan, billed yearly: ' + String(p.credits) + ' a month';
