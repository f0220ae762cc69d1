// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Close your account */
export const account_settings_close_heading = (locale: Locale): string =>
  locale === 'zh-CN' ? '注销你的账户' : 'Close your account';
