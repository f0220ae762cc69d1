// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** The credits remaining in your account stay yours, and you can keep using them. */
export const pricing_cancel_credits_stay = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '账户中剩余的积分仍归你所有，可以继续使用。'
    : 'The credits remaining in your account stay yours, and you can keep using them.';
