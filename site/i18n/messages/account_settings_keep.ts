// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Keep my account */
export const account_settings_keep = (locale: Locale): string =>
  locale === 'zh-CN' ? '保留我的账户' : 'Keep my account';
