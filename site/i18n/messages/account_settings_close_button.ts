// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Close my account… */
export const account_settings_close_button = (locale: Locale): string =>
  locale === 'zh-CN' ? '注销我的账户…' : 'Close my account…';
