// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** your balance fell below a threshold */
export const apiaccess_event_credits_low = (locale: Locale): string =>
  locale === 'zh-CN' ? '余额低于阈值' : 'your balance fell below a threshold';
