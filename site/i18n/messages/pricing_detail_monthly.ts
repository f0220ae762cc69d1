// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Monthly subscription · {credits} every month */
export const pricing_detail_monthly = (locale: Locale, p: { credits: string | number }): string =>
  locale === 'zh-CN'
    ? '按月订阅 · 每月 ' + String(p.credits)
    : 'Monthly subscription · ' + String(p.credits) + ' every month';
