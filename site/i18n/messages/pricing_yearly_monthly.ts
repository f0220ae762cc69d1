// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {monthly}, billed once a year (save {percent}%) */
export const pricing_yearly_monthly = (
  locale: Locale,
  p: { monthly: string | number; percent: string | number },
): string =>
  locale === 'zh-CN'
    ? String(p.monthly) + '，每年付费一次（省 ' + String(p.percent) + '%）'
    : String(p.monthly) + ', billed once a year (save ' + String(p.percent) + '%)';
