// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** See your {brand} account, download a copy of your data, or close the account. */
export const account_settings_page_description = (
  locale: Locale,
  p: { brand: string | number },
): string =>
  locale === 'zh-CN'
    ? '查看你的 ' + String(p.brand) + ' 账户、下载数据副本或注销账户。'
    : 'See your ' +
      String(p.brand) +
      ' account, download a copy of your data, or close the account.';
