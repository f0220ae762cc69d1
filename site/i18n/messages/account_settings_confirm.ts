// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Close account */
export const account_settings_confirm = (locale: Locale): string =>
  locale === 'zh-CN' ? '注销账户' : 'Close account';
