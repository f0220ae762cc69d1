// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Your account is closed */
export const account_settings_closed_title = (locale: Locale): string =>
  locale === 'zh-CN' ? '你的账户已注销' : 'Your account is closed';
