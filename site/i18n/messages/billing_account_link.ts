// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Account settings */
export const billing_account_link = (locale: Locale): string =>
  locale === 'zh-CN' ? '账户设置' : 'Account settings';
