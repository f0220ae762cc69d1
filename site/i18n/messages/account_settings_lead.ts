// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Your account, a copy of your data, and closing the account. */
export const account_settings_lead = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '你的账户、数据副本，以及注销账户。'
    : 'Your account, a copy of your data, and closing the account.';
