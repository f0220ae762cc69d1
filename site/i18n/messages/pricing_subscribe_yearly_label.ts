// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Subscribe to {plan}, billed yearly */
export const pricing_subscribe_yearly_label = (
  locale: Locale,
  p: { plan: string | number },
): string =>
  locale === 'zh-CN'
    ? '订阅 ' + String(p.plan) + '，按年付费'
    : 'Subscribe to ' + String(p.plan) + ', billed yearly';
