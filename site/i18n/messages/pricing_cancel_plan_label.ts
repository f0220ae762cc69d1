// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Cancel {plan} subscription */
export const pricing_cancel_plan_label = (locale: Locale, p: { plan: string | number }): string =>
  locale === 'zh-CN'
    ? '取消 ' + String(p.plan) + ' 订阅'
    : 'Cancel ' + String(p.plan) + ' subscription';
