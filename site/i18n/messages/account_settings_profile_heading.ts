// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Your account */
export const account_settings_profile_heading = (locale: Locale): string =>
  locale === 'zh-CN' ? '你的账户' : 'Your account';
