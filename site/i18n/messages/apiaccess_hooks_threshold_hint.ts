// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** credits.low is sent when your balance falls below this. */
export const apiaccess_hooks_threshold_hint = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '余额低于此值时发送 credits.low。'
    : 'credits.low is sent when your balance falls below this.';
