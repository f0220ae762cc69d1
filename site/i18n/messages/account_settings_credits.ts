// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Credits */
export const account_settings_credits = (locale: Locale): string =>
  locale === 'zh-CN' ? '积分' : 'Credits';
