// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** or {yearly} billed yearly (save {percent}%) */
export const pricing_yearly_offer = (
  locale: Locale,
  p: { percent: string | number; yearly: string | number },
): string =>
  locale === 'zh-CN'
    ? '或按年付费 ' + String(p.yearly) + '（省 ' + String(p.percent) + '%）'
    : 'or ' + String(p.yearly) + ' billed yearly (save ' + String(p.percent) + '%)';
