// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {credits} every month */
export const pricing_credits_every_month = (
  locale: Locale,
  p: { credits: string | number },
): string =>
  locale === 'zh-CN' ? '每月 ' + String(p.credits) : String(p.credits) + ' every month';
