// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** your {credits} remaining credits are lost, without a refund; */
export const account_settings_close_credits = (
  locale: Locale,
  p: { credits: string | number },
): string =>
  locale === 'zh-CN'
    ? '你剩余的 ' + String(p.credits) + ' 积分将作废，不予退款；'
    : 'your ' + String(p.credits) + ' remaining credits are lost, without a refund;';
