// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Choose a new password | {brand} */
export const account_reset_page_title = (locale: Locale, p: { brand: string | number }): string =>
  locale === 'zh-CN'
    ? '设置新密码 | ' + String(p.brand)
    : 'Choose a new password | ' + String(p.brand);
