// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Choose a new password for your {brand} account. */
export const account_reset_page_description = (
  locale: Locale,
  p: { brand: string | number },
): string =>
  locale === 'zh-CN'
    ? '为你的 ' + String(p.brand) + ' 账号设置新密码。'
    : 'Choose a new password for your ' + String(p.brand) + ' account.';
