// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Subscribe to {plan}, billed monthly */
export const pricing_subscribe_monthly_label = (
  locale: Locale,
  p: { plan: string | number },
): string =>
  locale === 'zh-CN'
    ? '订阅 ' + String(p.plan) + '，按月付费'
    : 'Subscribe to ' + String(p.plan) + ', billed monthly';
