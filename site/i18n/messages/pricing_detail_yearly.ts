// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Yearly subscription · {credits} every month */
export const pricing_detail_yearly = (locale: Locale, p: { credits: string | number }): string =>
  locale === 'zh-CN'
    ? '按年订阅 · 每月 ' + String(p.credits)
    : 'Yearly subscription · ' + String(p.credits) + ' every month';
